// `custody report` (issue 11, "The report a judge can read"): the collection side of the report.
// Authenticity rows name the file and the linked subject, with the indicator disclaimer once per
// section; exhibits say which subject, number and security branch they show; --include-images
// puts a content warning on a page before the first image and blurs the thumbnails unless
// --unblurred-images (which is refused without --include-images) is given, and then the cover
// says so; a subject number read from a card (Arabic-Indic digits with an RLM) and an Arabic
// branch name keep their logical order in Chromium; the deaths chart plots the month of death,
// says in its legend where a photograph's date stands in, and draws 60 months as 20 quarters.
// Each item is asserted in the HTML and, where it is text, in the PDF.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planCollection, writeCollection } from '../../src/demo/index.js';
import { PHOTOGRAPH_DATE_LEGEND } from '../../src/reports/charts/index.js';
import { custodyInExpect, custodyIn, type ItemJson } from '../support/archive-fixtures.js';
import { REPO_ROOT } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

const CHROMIUM = '/usr/bin/chromium';
const PDF_SKIP = !existsSync(CHROMIUM) && process.env.CI !== 'true';
const RLM = '\u200f';
/** As the demo writes card numbers read in Arabic-Indic digits. */
const NUMBER_248 = `${RLM}١٠٠٠/٢٤٨/٥٠٠٠`;
const NUMBER_215 = `${RLM}٢٠٠٠/٢١٥/٣٠٠٠`;
const BRANCH_215 = 'فرع المداهمة ٢١٥';
const BRANCH_248 = 'فرع التحقيق العسكري ٢٤٨';
const DISCLAIMER =
  'Indicators point an expert at what to examine; none of them is a verdict that an image was altered.';
const SCHEME = {
  id: 'caesar-card',
  pattern: '{detainee}/{branch}/{report}',
  fields: {
    detainee: { type: 'integer', min: 1, max: 99999 },
    branch: { type: 'integer', min: 1, max: 999, registry: 'units' },
    report: { type: 'integer', min: 1, max: 99999 },
  },
};

let dir: string;
let usb: string;
let env: Record<string, string>;
let size: number;
let flagged: ItemJson; // edited in Photoshop, linked to subject NUMBER_248
let exhibit: ItemJson; // linked to subject NUMBER_215 (no date of death)
let plainExhibit: ItemJson; // linked to no subject
const ok = (...args: string[]) => custodyInExpect(0, args, env);

async function report(out: string, ...extra: string[]): Promise<{ html: string | null; pdf: string | null; images: string }> {
  const r = await ok('report', '--template', 'tribunal', '--at', String(size), '--out', out, '--json', ...extra);
  return JSON.parse(r.stdout) as { html: string | null; pdf: string | null; images: string };
}

/** The HTML of one section of the report. */
function section(html: string, id: string): string {
  const start = html.indexOf(`<section id="${id}">`);
  expect(start, `section ${id}`).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</section>', start));
}

/** Text without markup, bidi isolates' marks and repeated whitespace. */
function plain(s: string): string {
  return s
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/[\u200e\u200f\u2066-\u2069\u202a-\u202e]/g, '')
    .replace(/\s+/g, ' ');
}

const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

/** The embedded exhibit thumbnails, decoded. */
function thumbnails(html: string): Buffer[] {
  return [...html.matchAll(/<img class="exhibit" src="data:image\/webp;base64,([A-Za-z0-9+/=]+)"/g)].map(
    (m) => Buffer.from(m[1] ?? '', 'base64'),
  );
}

/** Mean absolute difference between neighbouring grey pixels (both directions): high for sharp detail. */
async function sharpness(image: Buffer | string, width?: number, height?: number): Promise<{ value: number; width: number; height: number; grey: Buffer }> {
  let img = sharp(image).rotate();
  if (width !== undefined && height !== undefined) img = img.resize(width, height, { fit: 'fill' });
  const { data, info } = await img.greyscale().raw().toBuffer({ resolveWithObject: true });
  let sum = 0;
  let n = 0;
  for (let y = 0; y < info.height - 1; y++)
    for (let x = 0; x < info.width - 1; x++) {
      const p = data[(y * info.width + x) * info.channels] ?? 0;
      sum += Math.abs(p - (data[(y * info.width + x + 1) * info.channels] ?? 0));
      sum += Math.abs(p - (data[((y + 1) * info.width + x) * info.channels] ?? 0));
      n += 2;
    }
  return { value: sum / n, width: info.width, height: info.height, grey: data };
}

beforeAll(async () => {
  dir = await makeTempDir('custody-report-collection');
  env = { CUSTODY_ARCHIVE: join(dir, 'archive'), CUSTODY_CHROMIUM: CHROMIUM };
  usb = join(dir, 'usb');
  const plan = planCollection({ count: 8, seed: 'report-collection', duplicateRate: 0 });
  // One photograph re-saved by an editor: an EDITING_SOFTWARE indicator.
  const edited = plan.map((p, i) =>
    i === 1 ? { ...p, exif: { ...p.exif, software: 'Adobe Photoshop CS6 (Windows)' } } : p,
  );
  await writeCollection(usb, edited);
  // A photograph with sharp detail (a 16 px checkerboard), to tell a blurred thumbnail from a plain one.
  const side = 1024;
  const checker = Buffer.alloc(side * side * 3);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++)
      checker.fill(((x >> 4) + (y >> 4)) % 2 === 0 ? 230 : 25, (y * side + x) * 3, (y * side + x + 1) * 3);
  await mkdir(join(usb, 'scans'), { recursive: true });
  await sharp(checker, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 95 })
    .toFile(join(usb, 'scans', 'TEXTURE_0001.JPG'));
  await ok('init');
  await ok('ingest', usb, '--source', 'CEDAR', '--new-source');
  await ok('analyze');
  await ok('unit', 'add', '--name-en', 'Branch 215 (Raids)', '--name-ar', BRANCH_215, '--code', '215');
  await ok('unit', 'add', '--name-en', 'Branch 248 (Military Interrogation)', '--name-ar', BRANCH_248, '--code', '248');
  await writeFile(join(dir, 'scheme.json'), JSON.stringify(SCHEME));
  await ok('scheme', 'add', join(dir, 'scheme.json'));
  const items = JSON.parse((await ok('items', '--json')).stdout) as ItemJson[];
  const at = (i: number) => items.find((x) => x.relative_path === plan[i]?.relativePath) as ItemJson;
  flagged = at(1);
  exhibit = items.find((x) => x.relative_path === 'scans/TEXTURE_0001.JPG') as ItemJson;
  plainExhibit = at(3);
  await ok('subject', 'add', '--number', NUMBER_248, '--date-of-death', '2013-05-15', '--item', flagged.id, '--reason', 'card read');
  // No date of death: the chart places it by the photograph's date and says so.
  await ok('subject', 'add', '--number', NUMBER_215, '--date-of-photography', '2013-06-02', '--item', exhibit.id, '--reason', 'card read');
  // Five years of deaths: the chart draws quarters.
  const rows = Array.from({ length: 60 }, (_, m) => ({
    number: `${m + 10}/${m % 2 === 0 ? 215 : 248}/${m + 10}`,
    date_of_death: `${2011 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}-15`,
  }));
  await writeFile(join(dir, 'subjects.json'), JSON.stringify(rows));
  await ok('subject', 'import', join(dir, 'subjects.json'), '--reason', 'register transcribed');
  size = (JSON.parse((await ok('checkpoint', '--json')).stdout) as { size: number }).size;
}, 300_000);

describe('report: authenticity and exhibits', () => {
  let html: string;
  beforeAll(async () => {
    await report(join(dir, 'a.html'), '--exhibits', `${flagged.id},${exhibit.id},${plainExhibit.id}`);
    html = await readFile(join(dir, 'a.html'), 'utf8');
  }, 120_000);

  it('names the file and the linked subject (number and branch) in each authenticity row, not only the digest', () => {
    const rows = section(html, 'authenticity').split('<tr>').filter((r) => r.includes('EDITING_SOFTWARE'));
    expect(rows).toHaveLength(1);
    const row = plain(rows[0] ?? '');
    expect(row).toContain(`${flagged.name} (${flagged.id}): subject ١٠٠٠/٢٤٨/٥٠٠٠ (1000/248/5000), security branch ${BRANCH_248} / Branch 248 (Military Interrogation) (248)`);
    expect(row).toContain(flagged.sha256.slice(0, 16));
  });

  it('states the indicator disclaimer once in the authenticity section, though every explanation carries it', async () => {
    const one = JSON.parse((await ok('authenticity', flagged.sha256, '--at', String(size), '--json')).stdout) as {
      indicators: { explanation: string }[];
    };
    expect(one.indicators.every((i) => i.explanation.endsWith(DISCLAIMER))).toBe(true);
    expect(count(plain(section(html, 'authenticity')), DISCLAIMER)).toBe(1);
  });

  it('says which subject, number and security branch each exhibit shows', () => {
    const rows = section(html, 'exhibits').split('<tr>').slice(2).map(plain);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain(`subject ١٠٠٠/٢٤٨/٥٠٠٠ (1000/248/5000), security branch ${BRANCH_248} / Branch 248 (Military Interrogation) (248)`);
    expect(rows[1]).toContain(`subject ٢٠٠٠/٢١٥/٣٠٠٠ (2000/215/3000), security branch ${BRANCH_215} / Branch 215 (Raids) (215)`);
    expect(rows[2]).toContain('no subject linked');
    expect(rows[0]).toContain(flagged.name);
  });

  it('has no image, content warning or image notice without --include-images', () => {
    expect(html).not.toMatch(/<img|class="content-warning"/);
    expect(plain(section(html, 'cover'))).not.toMatch(/thumbnail/);
  });
});

describe('report: images', () => {
  it('refuses --unblurred-images without --include-images as a usage error', async () => {
    const r = await custodyIn(
      ['report', '--template', 'tribunal', '--out', join(dir, 'u.html'), '--exhibits', exhibit.id, '--unblurred-images'],
      env,
    );
    expect(r.code).toBe(2);
    expect(existsSync(join(dir, 'u.html'))).toBe(false);
  });

  it('blurs the thumbnails by default, behind a content warning placed before the first image, and says so on the cover', async () => {
    const out = await report(join(dir, 'blur.html'), '--exhibits', `${exhibit.id},${plainExhibit.id}`, '--include-images');
    expect(out.images).toBe('blurred');
    const html = await readFile(join(dir, 'blur.html'), 'utf8');
    const warning = html.indexOf('class="content-warning"');
    expect(warning).toBeGreaterThan(0);
    expect(warning).toBeLessThan(html.indexOf('<img'));
    expect(count(html, 'class="content-warning"')).toBe(1);
    expect(plain(section(html, 'cover'))).toContain('2 exhibit thumbnails, blurred and in greyscale');
    const captions = [...html.matchAll(/<figcaption>(.*?)<\/figcaption><\/figure>/g)].map((m) => plain(m[1] ?? ''));
    expect(captions[0]).toContain(`subject ٢٠٠٠/٢١٥/٣٠٠٠ (2000/215/3000), security branch ${BRANCH_215}`);
    expect(captions[0]).toContain('Blurred.');
    const thumbs = thumbnails(html);
    expect(thumbs).toHaveLength(2);
    const original = join(usb, exhibit.relative_path);
    const t = await sharpness(thumbs[0] ?? Buffer.alloc(0));
    const o = await sharpness(original, t.width, t.height);
    expect(t.value, `blurred ${t.value} vs original ${o.value}`).toBeLessThan(o.value * 0.25);
    const meta = await sharp(thumbs[0]).stats();
    expect(meta.isOpaque).toBe(true);
  }, 120_000);

  it('shows the originals unblurred with --unblurred-images, and says so on the cover', async () => {
    const out = await report(join(dir, 'sharp.html'), '--exhibits', exhibit.id, '--include-images', '--unblurred-images');
    expect(out.images).toBe('unblurred');
    const html = await readFile(join(dir, 'sharp.html'), 'utf8');
    expect(plain(section(html, 'cover'))).toContain('Images are shown unblurred.');
    expect(plain(html)).toContain('shown unblurred, as the photographs are');
    const [thumb] = thumbnails(html);
    const t = await sharpness(thumb ?? Buffer.alloc(0));
    const o = await sharpness(join(usb, exhibit.relative_path), t.width, t.height);
    expect(t.value, `unblurred ${t.value} vs original ${o.value}`).toBeGreaterThan(o.value * 0.6);
    // The same picture: grey levels close to the original's, pixel for pixel.
    let diff = 0;
    for (let i = 0; i < t.grey.length; i++) diff += Math.abs((t.grey[i] ?? 0) - (o.grey[i] ?? 0));
    expect(diff / t.grey.length).toBeLessThan(12);
  }, 120_000);

  it('never embeds a planted preview: the thumbnail is made from the verified object, not derived/previews/', async () => {
    const previews = join(dir, 'archive', 'derived', 'previews', exhibit.sha256.slice(0, 2));
    const planted = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ff0000' } }).webp().toBuffer();
    await mkdir(previews, { recursive: true });
    await writeFile(join(previews, `${exhibit.sha256}.256.webp`), planted);
    await writeFile(join(previews, `${exhibit.sha256}.256.blurred.webp`), planted);
    await report(join(dir, 'planted.html'), '--exhibits', exhibit.id, '--include-images');
    const [thumb] = thumbnails(await readFile(join(dir, 'planted.html'), 'utf8'));
    const stats = await sharp(thumb).stats();
    // Blurred greyscale of the real photograph, not a red square.
    expect(Math.abs((stats.channels[0]?.mean ?? 0) - (stats.channels[1]?.mean ?? 0))).toBeLessThan(2);
    expect(thumb?.equals(planted)).toBe(false);
  }, 120_000);
});

describe('report: tampered exhibit bytes', () => {
  it('refuses to make a thumbnail of stored bytes that do not match the exhibit SHA-256 (REPORT_EXHIBIT_DAMAGED)', async () => {
    const path = join(dir, 'archive', 'objects', 'sha256', exhibit.sha256.slice(0, 2), exhibit.sha256);
    const original = await readFile(path);
    const mode = (await stat(path)).mode;
    const other = await readFile(join(usb, flagged.relative_path));
    try {
      await chmod(path, 0o644);
      await writeFile(path, other); // another photograph under the exhibit's digest
      const r = await custodyIn(
        ['report', '--template', 'tribunal', '--at', String(size), '--out', join(dir, 'damaged.html'), '--exhibits', exhibit.id, '--include-images', '--json'],
        env,
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('REPORT_EXHIBIT_DAMAGED');
      expect(existsSync(join(dir, 'damaged.html'))).toBe(false);
    } finally {
      await writeFile(path, original);
      await chmod(path, mode & 0o777);
    }
    expect(await readFile(path)).toEqual(original);
  }, 120_000);
});

describe('report: deaths chart', () => {
  it('plots the month of death in quarters over five years, and says in the legend where a photograph date stands in', async () => {
    await report(join(dir, 'chart.html'));
    const catalogue = section(await readFile(join(dir, 'chart.html'), 'utf8'), 'catalogue');
    const svg = catalogue.slice(catalogue.indexOf('<svg'), catalogue.indexOf('</svg>'));
    const quarters = [...new Set([...svg.matchAll(/>(\d{4}-Q[1-4])</g)].map((m) => m[1]))];
    expect(quarters).toHaveLength(20);
    expect([quarters[0], quarters.at(-1)]).toEqual(['2011-Q1', '2015-Q4']);
    expect(svg).not.toMatch(/>\d{4}-\d{2}</);
    expect(svg).toContain('Quarter of death');
    expect(svg).toContain(PHOTOGRAPH_DATE_LEGEND);
    expect(plain(catalogue)).toContain('1 subject has no recorded date of death and is counted in the month the photograph was taken');
  }, 120_000);
});

/**
 * Runs in the page (plain JavaScript: the test's TypeScript has no DOM types). The glyph box of
 * every character with a width, in logical order, of the first element matching `selector` whose
 * text contains `needle`, kept on one line; with `asPlainText`, the same characters with the
 * markup (and so the isolates) removed: the control.
 */
const GLYPHS_SCRIPT = `({ selector, needle, asPlainText }) => {
  const el = [...document.querySelectorAll(selector)].find((e) => (e.textContent || '').includes(needle));
  if (el === undefined) return null;
  if (asPlainText) { const t = el.textContent; el.textContent = t; }
  el.style.whiteSpace = 'nowrap';
  const chars = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = node.textContent || '';
    for (let i = 0; i < text.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (rect === undefined || rect.width === 0) continue;
      chars.push({ ch: text[i], x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });
    }
  }
  return chars;
}`;

describe('report: Arabic numbers and names in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /**
   * The glyph boxes of every visible character of the first element matching `selector` whose
   * text contains `needle`, laid out on one line, in logical order: {ch, x (centre), y}.
   */
  async function glyphs(html: string, selector: string, needle: string, asPlainText: boolean) {
    const page = await browser.newPage({ viewport: { width: 2400, height: 1200 } });
    await page.setContent(html, { waitUntil: 'load' });
    const out = await page.evaluate<{ ch: string; x: number; y: number }[] | null>(
      `(${GLYPHS_SCRIPT})(${JSON.stringify({ selector, needle, asPlainText })})`,
    );
    await page.close();
    expect(out, `${selector} containing ${needle}`).not.toBeNull();
    return out ?? [];
  }

  /** x of the characters of the logical substring `s` (first occurrence after `from`). */
  function xs(chars: { ch: string; x: number }[], s: string, from = 0): number[] {
    const text = chars.map((c) => c.ch).join('');
    const at = text.indexOf(s, from);
    expect(at, `"${s}" in "${text}"`).toBeGreaterThanOrEqual(0);
    return chars.slice(at, at + s.length).map((c) => c.x);
  }
  const increasing = (v: number[]) => v.every((x, i) => i === 0 || x > (v[i - 1] ?? 0));
  const decreasing = (v: number[]) => v.every((x, i) => i === 0 || x < (v[i - 1] ?? 0));

  it('lays a card number and a branch name out in logical order in an exhibit row, and the same text without isolates would not', async () => {
    await report(join(dir, 'bidi.html'), '--exhibits', flagged.id);
    const html = await readFile(join(dir, 'bidi.html'), 'utf8');
    const chars = await glyphs(html, '#exhibits td', '١٠٠٠', false);
    const ys = chars.map((c) => c.y);
    expect(Math.max(...ys) - Math.min(...ys), 'one line').toBeLessThan(10);
    // The number as read: its three parts left to right, each part's digits left to right.
    const thousand = xs(chars, '١٠٠٠');
    const branch = xs(chars, '٢٤٨', chars.map((c) => c.ch).join('').indexOf('١٠٠٠'));
    const report5000 = xs(chars, '٥٠٠٠');
    expect(increasing(thousand) && increasing(branch) && increasing(report5000)).toBe(true);
    expect(Math.max(...thousand)).toBeLessThan(Math.min(...branch));
    expect(Math.max(...branch)).toBeLessThan(Math.min(...report5000));
    // Then, in the English sentence's order: the normalised number, "security branch", the Arabic name.
    const normalised = xs(chars, '(1000/248/5000)');
    const words = xs(chars, 'security branch');
    const name = xs(chars, BRANCH_248);
    expect(Math.max(...report5000)).toBeLessThan(Math.min(...normalised));
    expect(Math.max(...normalised)).toBeLessThan(Math.min(...words));
    expect(Math.max(...words)).toBeLessThan(Math.min(...name));
    // The branch name reads right to left (first word rightmost), its number (٢٤٨) at its left
    // end with the digits left to right.
    const at = chars.map((c) => c.ch).join('').indexOf(BRANCH_248);
    const centre = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const wordsOfName = BRANCH_248.split(' ').slice(0, 3).map((w) => centre(xs(chars, w, at)));
    expect(decreasing(wordsOfName)).toBe(true);
    const nameDigits = xs(chars, '٢٤٨', at);
    expect(increasing(nameDigits)).toBe(true);
    expect(Math.max(...nameDigits)).toBeLessThan(Math.min(...xs(chars, 'فرع التحقيق العسكري', at)));
    expect(Math.max(...name)).toBeLessThan(Math.min(...xs(chars, '/ Branch 248')));

    // The control: without the isolates, the card number is laid out after its normalised form.
    const bare = await glyphs(html, '#exhibits td', '١٠٠٠', true);
    expect(Math.max(...xs(bare, '١٠٠٠/٢٤٨/٥٠٠٠'))).toBeGreaterThan(Math.min(...xs(bare, '1000/248/5000')));
  }, 120_000);

  it('keeps the same order in the authenticity row', async () => {
    const html = await readFile(join(dir, 'bidi.html'), 'utf8');
    const chars = await glyphs(html, '#authenticity td', '١٠٠٠', false);
    const text = chars.map((c) => c.ch).join('');
    expect(text.indexOf(flagged.name)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs(chars, flagged.name))).toBeLessThan(Math.min(...xs(chars, '١٠٠٠')));
    expect(Math.max(...xs(chars, '٥٠٠٠'))).toBeLessThan(Math.min(...xs(chars, '(1000/248/5000)')));
    expect(Math.max(...xs(chars, 'security branch'))).toBeLessThan(Math.min(...xs(chars, BRANCH_248)));
  }, 120_000);
});

describe.skipIf(PDF_SKIP)('report: the same in the PDF', () => {
  let pdf: string;
  let pages: string[];
  const pageText = (n: number) =>
    execFileSync('pdftotext', ['-f', String(n), '-l', String(n), pdf, '-'], { encoding: 'utf8' });

  beforeAll(async () => {
    pdf = join(dir, 'report.pdf');
    const r = await report(pdf, '--exhibits', `${flagged.id},${exhibit.id}`, '--include-images');
    expect(r.pdf).toBe(pdf);
    pages = execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' }).split('\f').map((p) => plain(p));
    // Kept for a person (and CI) to look at.
    const artifacts = process.env.CI_ARTIFACTS_DIR ?? join(REPO_ROOT, 'artifacts');
    await mkdir(artifacts, { recursive: true });
    await copyFile(pdf, join(artifacts, 'report-collection.pdf'));
  }, 180_000);

  it('names the flagged file and its subject number in the authenticity rows, with the disclaimer once', () => {
    const all = pages.join(' ');
    const start = all.indexOf('These are indicators, not verdicts.');
    const end = all.indexOf('. Catalogue', start);
    expect([start, end].every((i) => i > 0)).toBe(true);
    const authenticity = all.slice(start, end);
    expect(authenticity).toContain(flagged.name);
    expect(authenticity).toContain('(1000/248/5000)');
    expect(authenticity).toContain('Branch 248 (Military Interrogation)');
    expect(count(authenticity, DISCLAIMER)).toBe(1);
  });

  it('says which subject, number and branch each exhibit shows', () => {
    const all = pages.join(' ');
    const exhibits = all.slice(all.lastIndexOf('Exhibits'));
    expect(exhibits).toContain('(2000/215/3000), security branch');
    expect(exhibits).toContain('Branch 215 (Raids) (215)');
    expect(exhibits).toContain('(1000/248/5000), security branch');
  });

  it('puts the content warning on a page of its own, before the page of the first image', () => {
    const images = execFileSync('pdfimages', ['-list', pdf], { encoding: 'utf8' })
      .split('\n')
      .slice(2)
      .map((l) => Number(l.trim().split(/\s+/)[0]))
      .filter((n) => Number.isInteger(n) && n > 0);
    expect(images.length).toBeGreaterThanOrEqual(2);
    const firstImage = Math.min(...images);
    const warningPages = pages.map((p, i) => (p.includes('Content warning') ? i + 1 : 0)).filter((n) => n > 0);
    expect(warningPages).toHaveLength(1);
    const warning = warningPages[0] ?? 0;
    expect(warning).toBeLessThan(firstImage);
    // Its own page: nothing else of the report on it (only the page footer).
    expect(plain(pageText(warning)).replace(/Evidence report · .* page \d+ of \d+/, '').trim()).toMatch(
      /^Content warning: the next pages show photographs of dead people, some with injuries\. The 2 thumbnails are blurred and in greyscale; the originals are in the archive\.$/,
    );
  });

  it('says on the cover that the thumbnails are blurred', () => {
    expect(plain(pageText(1))).toContain('2 exhibit thumbnails, blurred and in greyscale');
  });
});

// `custody report` on a generated archive (synthetic photographs, units with Arabic names, subjects
// over 48 months): HTML and PDF produced; every footnote's command re-run as a subprocess gives the
// printed value; two runs at one checkpoint give the same HTML apart from the generation line; the
// PDF carries the Arabic unit name, embeds Noto fonts, and repeats table headers on the next page.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { similaritySearchesRun } from '../../src/analysis/similarity/archive-similarity.service.js';
import { resolvePointer, type Footnote } from '../../src/reports/report/index.js';
import { planCollection, writeCollection } from '../../src/demo/index.js';
import { custodyIn } from '../support/archive-fixtures.js';
import { REPO_ROOT } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

const ARABIC_UNIT = 'فرع الأمن العسكري';
const SCHEME = {
  id: 'card',
  pattern: '{detainee}/{branch}/{report}',
  fields: {
    detainee: { type: 'integer', min: 1, max: 99999 },
    branch: { type: 'integer', min: 1, max: 999, registry: 'units' },
    report: { type: 'integer', min: 1, max: 99999 },
  },
};
const CHROMIUM = '/usr/bin/chromium';
const PDF_SKIP = !existsSync(CHROMIUM) && process.env.CI !== 'true';
if (PDF_SKIP)
  console.warn(
    `report PDF tests skipped: ${CHROMIUM} is missing (sudo bash scripts/install-system-deps.sh); with CI=true they fail instead`,
  );

interface ReportJson {
  checkpoint: { size: number };
  html: string | null;
  pdf: string | null;
  pdf_unavailable: string | null;
  footnotes: Footnote[];
}

let dir: string;
let env: Record<string, string>;
let size: number;
let items: { id: string; name: string }[];
// In-process (runCli): these calls build and read the archive; none is about the binary itself.
const cli = (...args: string[]) => custodyIn(args, env);

async function ok(...args: string[]) {
  const r = await cli(...args);
  expect(r.code, `custody ${args.join(' ')}\n${r.stderr}`).toBe(0);
  return r;
}

async function report(out: string, ...extra: string[]): Promise<ReportJson> {
  return JSON.parse(
    (
      await ok(
        'report',
        '--template',
        'tribunal',
        '--at',
        String(size),
        '--out',
        out,
        '--json',
        ...extra,
      )
    ).stdout,
  ) as ReportJson;
}

beforeAll(async () => {
  dir = await makeTempDir('custody-report');
  env = { CUSTODY_ARCHIVE: join(dir, 'archive'), CUSTODY_CHROMIUM: '' };
  const usb = join(dir, 'usb');
  const plan = planCollection({ count: 30, seed: 'report-e2e', duplicateRate: 0.1 });
  await writeCollection(usb, plan);
  const second = join(dir, 'second');
  await mkdir(second);
  // The same photograph from a second source: one object, two items.
  await copyFile(join(usb, plan[0]?.relativePath ?? ''), join(second, 'copy.jpg'));
  await ok('init');
  await ok('ingest', usb, '--source', 'CEDAR', '--new-source');
  await writeFile(join(second, 'note.txt'), 'a second delivery');
  await ok('ingest', second, '--source', 'HERON', '--new-source');
  await ok('analyze');
  await ok(
    'unit',
    'add',
    '--name-en',
    'Military Security Branch',
    '--name-ar',
    ARABIC_UNIT,
    '--code',
    '215',
  );
  await ok('unit', 'add', '--name-en', 'Branch 227', '--name-ar', 'فرع المنطقة', '--code', '227');
  await writeFile(join(dir, 'scheme.json'), JSON.stringify(SCHEME));
  await ok('scheme', 'add', join(dir, 'scheme.json'));
  items = JSON.parse((await ok('items', '--json')).stdout) as { id: string; name: string }[];
  for (let m = 0; m < 48; m++) {
    const month = `${2011 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
    const args = [
      'subject',
      'add',
      '--number',
      `${m + 1}/${m % 3 === 0 ? 227 : 215}/${m + 1}`,
      '--date-of-death',
      `${month}-15`,
      '--reason',
      'card read',
    ];
    if (m < 4) args.push('--item', items[m]?.id ?? '');
    await ok(...args);
  }
  size = (JSON.parse((await ok('checkpoint', '--json')).stdout) as { size: number }).size;
}, 300_000);

describe('custody report (HTML)', () => {
  it('writes a tribunal report with the Arabic unit name marked right to left, and no image', async () => {
    const r = await report(join(dir, 'a.html'), '--exhibits', items[0]?.id ?? '');
    expect(r.html).toBe(join(dir, 'a.html'));
    const html = await readFile(join(dir, 'a.html'), 'utf8');
    expect(html).toContain(`<span dir="rtl" lang="ar">${ARABIC_UNIT}</span>`);
    expect(html).toContain('These are indicators, not verdicts.');
    expect(html).toContain('No sampling plan in this archive');
    expect(html).not.toMatch(/<img|<script/i);
  });

  it('reproduces every footnote: each command, re-run, gives the printed value at its pointer', async () => {
    const r = await report(join(dir, 'b.html'), '--exhibits', items[1]?.id ?? '');
    const html = await readFile(join(dir, 'b.html'), 'utf8');
    expect(r.footnotes.length).toBeGreaterThan(60);
    const outputs = new Map<string, unknown>();
    for (const f of r.footnotes) {
      expect(f.command[0]).toBe('custody');
      const key = JSON.stringify(f.command);
      if (!outputs.has(key)) {
        const run = await cli(...f.command.slice(1));
        expect(run.code, `${f.command.join(' ')}\n${run.stderr}`).toBe(0);
        outputs.set(key, JSON.parse(run.stdout));
      }
      expect(
        resolvePointer(outputs.get(key), f.pointer),
        `footnote ${f.n}: ${f.command.join(' ')} | ${f.pointer}`,
      ).toEqual(f.value);
    }
    // The page prints each cited number as the footnote's value.
    const values = new Map(r.footnotes.map((f) => [f.n, f.value]));
    const spans = [...html.matchAll(/<span class="cited" data-fn="(\d+)">(?:<[^>]+>)*([^<]*)/g)];
    expect(spans.length).toBeGreaterThan(40);
    for (const [, n, text] of spans) {
      const v = values.get(Number(n));
      if (typeof v === 'number') expect(text).toBe(String(v));
    }
  }, 300_000);

  it('gives the same HTML twice at one checkpoint, even after the archive grew, apart from the run-time lines', async () => {
    const strip = (s: string) =>
      s
        .replace(/<p class="generated"[^>]*>.*?<\/p>/, '')
        .replace(/<p( class="warning")? data-volatile="verification">.*?<\/p>/, '');
    await report(join(dir, 'c1.html'));
    // The second report at this checkpoint replays the same ledger: its near-duplicate search has
    // the same inputs, and this process has its pairs already (archive-similarity.service.ts).
    const searches = similaritySearchesRun();
    expect(searches, 'a report searches for near-duplicates').toBeGreaterThan(0);
    await report(join(dir, 'c2.html'));
    expect(similaritySearchesRun()).toBe(searches);
    const c1 = await readFile(join(dir, 'c1.html'), 'utf8');
    const c2 = await readFile(join(dir, 'c2.html'), 'utf8');
    expect(c2).not.toBe(c1);
    expect(c2.replace(/<p class="generated"[^>]*>.*?<\/p>/, '')).toBe(
      c1.replace(/<p class="generated"[^>]*>.*?<\/p>/, ''),
    );
    await ok('unit', 'add', '--name-en', 'Branch 248', '--code', '248');
    await report(join(dir, 'c3.html'));
    expect(strip(await readFile(join(dir, 'c3.html'), 'utf8'))).toBe(strip(c1));
  }, 120_000);

  it('shows thumbnails only with --include-images, and only of the exhibits', async () => {
    const bare = await cli(
      'report',
      '--template',
      'summary',
      '--out',
      join(dir, 'x.html'),
      '--include-images',
    );
    expect(bare.code).toBe(2);
    const photo = items.find((i) => i.name.toLowerCase().endsWith('.jpg'));
    await report(join(dir, 'img.html'), '--exhibits', photo?.id ?? '', '--include-images');
    const html = await readFile(join(dir, 'img.html'), 'utf8');
    expect(html.match(/<img /g)).toHaveLength(1);
    expect(html).toContain('src="data:image/webp;base64,');
  }, 120_000);

  it('refuses a tree size without a signed checkpoint, an unknown exhibit and a wrong template', async () => {
    // Mid-ingest: entries were appended, but the checkpoint was signed at the end of the command.
    expect((await cli('checkpoint', '--at', '3')).code).toBe(1);
    const r = await cli(
      'report',
      '--template',
      'tribunal',
      '--at',
      '3',
      '--out',
      join(dir, 'n.html'),
    );
    expect([r.code, r.stderr]).toEqual([1, expect.stringContaining('REPORT_NO_CHECKPOINT')]);
    const u = await cli(
      'report',
      '--template',
      'tribunal',
      '--out',
      join(dir, 'n.html'),
      '--exhibits',
      'NOPE',
    );
    expect([u.code, u.stderr]).toEqual([1, expect.stringContaining('REPORT_UNKNOWN_EXHIBIT')]);
    expect((await cli('report', '--template', 'brief', '--out', join(dir, 'n.html'))).code).toBe(2);
  });

  it('writes HTML only, and says so, where Chromium is missing', async () => {
    const r = await custodyIn(
      ['report', '--template', 'summary', '--out', join(dir, 'nochrome.pdf'), '--json'],
      { ...env, CUSTODY_CHROMIUM: join(dir, 'no-chromium') },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('REPORT_PDF_UNAVAILABLE');
    const out = JSON.parse(r.stdout) as ReportJson;
    expect([out.pdf, out.html]).toEqual([null, join(dir, 'nochrome.html')]);
    expect(out.pdf_unavailable).toContain('no-chromium');
    expect(existsSync(join(dir, 'nochrome.pdf'))).toBe(false);
  });
});

describe.skipIf(PDF_SKIP)('custody report (PDF)', () => {
  let pdf: string;
  const text = (...args: string[]) =>
    execFileSync('pdftotext', [...args, pdf, '-'], { encoding: 'utf8' });
  // Bidi embedding controls that pdftotext adds around right-to-left runs.
  const plain = (s: string) =>
    s.normalize('NFKC').replace(/[\u202A-\u202E\u2066-\u2069\u200E\u200F]/g, '');

  beforeAll(async () => {
    pdf = join(dir, 'report.pdf');
    const r = await report(pdf, '--exhibits', items[0]?.id ?? '');
    expect(r.pdf).toBe(pdf);
  }, 180_000);

  it('is a PDF whose text holds the Arabic unit name in reading order', () => {
    // pdftotext's default mode gives logical order (-raw gives the visual, reversed word order).
    // Chart labels are SVG text, whose lam-alef ligature pdftotext maps back out of order, so
    // the name is looked for as the table prints it.
    expect(plain(text())).toContain(ARABIC_UNIT);
  });

  it('embeds Noto fonts for Latin and Arabic', () => {
    const fonts = execFileSync('pdffonts', [pdf], { encoding: 'utf8' });
    const embedded = fonts.split('\n').filter((l) => / yes +yes +yes /.test(l));
    expect(embedded.some((l) => /NotoSans-Regular/.test(l))).toBe(true);
    expect(embedded.some((l) => /Noto(Naskh|Sans)Arabic/.test(l))).toBe(true);
  });

  it('repeats a table header on the page a table continues on', () => {
    const pages = text('-layout').split('\f');
    const first = pages.findIndex((p) => /^\s*2011-01\s+1/m.test(p));
    const last = pages.findIndex((p) => /^\s*2014-12\s+1/m.test(p));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(last, 'the subjects-by-month table should span two pages').toBeGreaterThan(first);
    expect(pages[last]).toMatch(/^\s*Month\s+Subjects\s*$/m);
  });

  it('renders page images, kept for CI as artifacts', async () => {
    const artifacts = process.env.CI_ARTIFACTS_DIR ?? join(REPO_ROOT, 'artifacts');
    await mkdir(artifacts, { recursive: true });
    await mkdir(join(dir, 'pages'));
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '60',
      '-f',
      '1',
      '-l',
      '2',
      pdf,
      join(dir, 'pages', 'page'),
    ]);
    // pdftoppm pads page numbers to the width of the page count (page-01.png from a 10-page PDF).
    const pngs = (await readdir(join(dir, 'pages'))).sort();
    expect(pngs).toHaveLength(2);
    for (const [i, name] of pngs.entries()) {
      const png = join(dir, 'pages', name);
      expect((await readFile(png)).subarray(1, 4).toString()).toBe('PNG');
      await copyFile(png, join(artifacts, `report-page-${i + 1}.png`));
    }
  });
});

// The collection side of the report model (issue 11): file names and subjects beside digests, the
// indicator disclaimer once per section, exhibits with subject, number and security branch, and
// images behind a content warning, blurred unless the cover says otherwise.
import { describe, expect, it } from 'vitest';
import { buildReportModel } from './build-model.js';
import type { SubjectLabel } from './input.js';
import type { Block, Inline, ReportModel } from './model.js';
import { renderReportHtml } from './render-html.js';
import { inputFixture } from './report.fixture.js';
import { subjectParts } from './sections-collection.js';

const OPTS = {
  template: 'tribunal',
  generatedAt: '2026-11-30T00:00:00.000Z',
  codeVersion: 'custody 0.1.0',
} as const;
const NO_CHARTS = { perDay: null, deaths: null, prevalence: null };
const DISCLAIMER =
  'Indicators point an expert at what to examine; none of them is a verdict that an image was altered.';
const SUBJECT: SubjectLabel = {
  id: 'S1',
  numberRaw: '\u200f١٠٠٠/٢٤٨/٥٠٠٠',
  number: '1000/248/5000',
  unit: { id: 'U248', code: 248, name_en: 'Branch 248', name_ar: 'فرع التحقيق العسكري ٢٤٨' },
};
const PIXEL = 'data:image/webp;base64,UklGRg==';

function blocksOf(model: ReportModel, id: string): readonly Block[] {
  return model.sections.find((s) => s.id === id)?.blocks ?? [];
}

const words = (parts: readonly Inline[]) => parts.map((p) => (typeof p === 'string' ? p : p.text)).join('');

function withImages(images: 'blurred' | 'unblurred'): ReportModel {
  const base = inputFixture();
  return buildReportModel(
    inputFixture({
      images,
      exhibits: [{ ...base.exhibits[0]!, thumbnail: PIXEL, subject: SUBJECT }],
    }),
    OPTS,
  );
}

describe('subjectParts', () => {
  it('gives the number as read and as normalised, and the branch, each value isolated', () => {
    const parts = subjectParts(SUBJECT);
    expect(words(parts)).toBe(
      'subject \u200f١٠٠٠/٢٤٨/٥٠٠٠ (1000/248/5000), security branch فرع التحقيق العسكري ٢٤٨ / Branch 248 (248)',
    );
    const isolated = parts.filter((p) => typeof p !== 'string' && p.isolate === true).map((p) => (p as { text: string }).text);
    expect(isolated).toEqual(['\u200f١٠٠٠/٢٤٨/٥٠٠٠', '1000/248/5000', 'فرع التحقيق العسكري ٢٤٨', 'Branch 248']);
    expect(words(subjectParts(null))).toBe('no subject linked');
  });
});

describe('authenticity rows', () => {
  it('name the file and the linked subject, and the disclaimer is stated once, not on every row', () => {
    const base = inputFixture();
    const flagged = base.authenticity.flagged[0]!;
    const input = inputFixture({
      authenticity: {
        ...base.authenticity,
        disclaimer: DISCLAIMER,
        flagged: [0, 1].map((i) => ({
          ...flagged,
          sha256: String(i).repeat(64),
          indicators: [{ code: 'EDITING_SOFTWARE', explanation: `Software names Photoshop. ${DISCLAIMER}` }],
          files: [{ item: `I${i}`, name: `IMG_000${i}.JPG`, subject: i === 0 ? SUBJECT : null }],
        })),
      },
    });
    const html = renderReportHtml(buildReportModel(input, OPTS), NO_CHARTS);
    const section = html.slice(html.indexOf('<section id="authenticity">'), html.indexOf('</section>', html.indexOf('<section id="authenticity">')));
    expect(section.split(DISCLAIMER)).toHaveLength(2);
    expect(section).toContain('<bdi>IMG_0000.JPG</bdi>');
    expect(section).toContain('<bdi><span dir="rtl" lang="ar">\u200f١٠٠٠/٢٤٨/٥٠٠٠</span></bdi> (<bdi>1000/248/5000</bdi>)');
    expect(section).toContain('EDITING_SOFTWARE: Software names Photoshop.</td>');
  });
});

describe('exhibit images', () => {
  it('come after a content warning, blurred, and the cover says how many', () => {
    const model = withImages('blurred');
    const blocks = blocksOf(model, 'exhibits');
    const warning = blocks.findIndex((b) => b.kind === 'p' && b.style === 'content-warning');
    const image = blocks.findIndex((b) => b.kind === 'image');
    expect(warning).toBeGreaterThan(0);
    expect(image).toBe(warning + 1);
    const img = blocks[image] as Extract<Block, { kind: 'image' }>;
    expect(words(img.caption)).toContain('subject \u200f١٠٠٠/٢٤٨/٥٠٠٠ (1000/248/5000), security branch');
    expect(words(img.caption)).toContain('Blurred.');
    expect(JSON.stringify(blocksOf(model, 'cover'))).toContain('1 exhibit thumbnail, blurred and in greyscale');
    const html = renderReportHtml(model, NO_CHARTS);
    expect(html.indexOf('<div class="content-warning" role="note">')).toBeLessThan(html.indexOf('<img'));
    expect(html).toMatch(/@media print \{ \.content-warning \{ break-before: page; break-after: page;/);
  });

  it('say on the cover, as a warning, when they are unblurred', () => {
    const cover = blocksOf(withImages('unblurred'), 'cover');
    const last = cover.at(-1);
    expect(last).toMatchObject({ kind: 'p', style: 'warning' });
    expect(JSON.stringify(last)).toContain('Images are shown unblurred.');
  });

  it('are absent, with no warning or notice, without --include-images', () => {
    const model = buildReportModel(inputFixture(), OPTS);
    expect(blocksOf(model, 'exhibits').some((b) => b.kind === 'image' || (b.kind === 'p' && b.style === 'content-warning'))).toBe(false);
    expect(JSON.stringify(blocksOf(model, 'cover'))).not.toContain('thumbnail');
  });
});

describe('the grey-descriptor step', () => {
  const warning = (model: ReportModel): string | undefined => {
    const b = blocksOf(model, 'collection').find(
      (x) => x.kind === 'p' && words(x.parts).startsWith('Not every crop was looked for.'),
    );
    return b?.kind === 'p' ? words(b.parts) : undefined;
  };

  it('says nothing when it ran', () => {
    expect(warning(buildReportModel(inputFixture(), OPTS))).toBeUndefined();
  });

  it('warns when it did not run, with its counts cited to custody similar for an object that needed it', () => {
    const example = '88'.repeat(32);
    const model = buildReportModel(
      inputFixture({ greyStep: { ran: false, needing: 26948, limit: 5000, example } }),
      OPTS,
    );
    expect(warning(model)).toBe(
      'Not every crop was looked for. The grey-descriptor step of the near-duplicate search did not run: ' +
        '26948 analysed images were alone or in a group of at most three, more than the 5000 it takes. ' +
        'A crop cut unevenly and also turned or flipped, which only that step finds, may be missing from these clusters.',
    );
    const cited = model.footnotes.filter((f) => f.command[1] === 'similar');
    expect(cited.map((f) => [f.command.join(' '), f.pointer, f.value])).toEqual([
      [`custody similar ${example} --at 812 --json`, '/grey_step/objects_needing_it', 26948],
      [`custody similar ${example} --at 812 --json`, '/grey_step/limit', 5000],
    ]);
  });
});

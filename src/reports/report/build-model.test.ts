import { describe, expect, it } from 'vitest';
import { buildReportModel } from './build-model.js';
import type { Block, ReportModel } from './model.js';
import { inputFixture, STATISTICS_FIXTURE } from './report.fixture.js';

const OPTS = {
  template: 'tribunal',
  generatedAt: '2026-11-30T00:00:00.000Z',
  codeVersion: 'custody 0.1.0',
} as const;

function text(model: ReportModel, id: string): string {
  const blocks = model.sections.find((s) => s.id === id)?.blocks ?? [];
  return JSON.stringify(blocks);
}

function notesFor(model: ReportModel, command: string): string[] {
  return model.footnotes
    .filter((f) => f.command.join(' ').startsWith(command))
    .map((f) => f.pointer);
}

describe('buildReportModel', () => {
  it('cites only commands that take --at this checkpoint, except verify, prove, interval and log, which say why', () => {
    const model = buildReportModel(inputFixture(), OPTS);
    for (const f of model.footnotes) {
      const args = f.command.join(' ');
      if (args.startsWith('custody verify')) expect(f.note).toMatch(/no --at/);
      else if (args.startsWith('custody prove inclusion')) expect(args).toContain('--size 812');
      else if (args.startsWith('custody interval')) expect(f.note).toMatch(/no archive needed/);
      else if (args.startsWith('custody log --from')) expect(f.note).toMatch(/manifest entry/);
      else expect(args).toContain('--at 812 --json');
    }
  });

  it('has the sections of the tribunal template, and fewer in the summary', () => {
    const ids = (m: ReportModel) => m.sections.map((s) => s.id);
    expect(ids(buildReportModel(inputFixture(), OPTS))).toEqual([
      'cover',
      'collection',
      'integrity',
      'authenticity',
      'catalogue',
      'methodology',
      'findings',
      'exhibits',
      'appendix',
    ]);
    expect(ids(buildReportModel(inputFixture(), { ...OPTS, template: 'summary' }))).toEqual([
      'cover',
      'collection',
      'integrity',
      'authenticity',
      'catalogue',
      'findings',
    ]);
  });

  it('states findings from the statistics: sentence, prevalence, interval, population and agreement', () => {
    const model = buildReportModel(inputFixture(), OPTS);
    expect(text(model, 'findings')).toContain(STATISTICS_FIXTURE.findings[0]?.sentence);
    expect(notesFor(model, 'custody stats Autumn sample --at 812')).toEqual(
      expect.arrayContaining([
        '/findings/0/proportion',
        '/findings/0/wilson/lower',
        '/findings/0/population/count_interval/upper',
        '/findings/0/agreement/coefficients/0/value',
        '/sample/frame_digest',
        '/sample/seed',
        '/sample/manifest_digest',
        '/codebook/version',
      ]),
    );
    expect(model.charts.prevalence).toEqual([
      {
        finding: 'emaciation',
        label: 'Emaciation',
        proportion: 0.62,
        lower: 0.5403,
        upper: 0.6937,
        n: 150,
      },
    ]);
  });

  it('says there is no sampling plan, and draws no prevalence, when there is none', () => {
    const model = buildReportModel(inputFixture({ statistics: [] }), OPTS);
    expect(text(model, 'methodology')).toContain('No sampling plan in this archive');
    expect(text(model, 'findings')).toContain('No sampling plan in this archive');
    expect(model.charts.prevalence).toBeNull();
    expect(notesFor(model, 'custody stats')).toEqual([]);
  });

  it('lists the subjects whose unit changed after the frame was fixed, each cited to custody stats', () => {
    const afi = { id: 'U9', code: 'AFI', name_en: 'Air Force Intelligence', name_ar: 'المخابرات الجوية' };
    const changes = [
      { subject: 'S7', number: '1234', from: null, to: afi, entries: [{ seq: 700, reason: 'card reads AFI' }] },
    ];
    const model = buildReportModel(inputFixture({ unitChanges: { 'Autumn sample': changes } }), OPTS);
    const methodology = text(model, 'methodology');
    expect(methodology).toContain('Subjects whose unit changed after the frame was fixed');
    expect(methodology).toContain('Air Force Intelligence / المخابرات الجوية (AFI)');
    expect(methodology).toContain('700: card reads AFI');
    const cited = model.footnotes.filter((f) => f.command.join(' ') === 'custody stats Autumn sample --at 812 --json');
    expect(cited.find((f) => f.pointer === '/unit_attribution/changed_after_frame/length')?.value).toBe(1);
    expect(cited.find((f) => f.pointer === '/unit_attribution/changed_after_frame/0/subject')?.value).toBe('S7');
  });

  it('says so, with a footnote, when no subject changed unit after the frame was fixed', () => {
    const model = buildReportModel(inputFixture(), OPTS);
    expect(text(model, 'methodology')).toContain('No subject changed unit after the frame was fixed');
    const note = model.footnotes.find((f) => f.pointer === '/unit_attribution/changed_after_frame/length');
    expect(note?.value).toBe(0);
  });

  it('says plainly that indicators are not verdicts', () => {
    expect(text(buildReportModel(inputFixture(), OPTS), 'authenticity')).toContain(
      'These are indicators, not verdicts.',
    );
  });

  it('charts deaths by unit and month from known months only, under the Arabic name', () => {
    const model = buildReportModel(inputFixture(), OPTS);
    expect(model.charts.deaths).toEqual([
      { unit: 'فرع الأمن العسكري', month: '2013-05', count: 2, byPhotograph: 1 },
    ]);
    expect(model.charts.perDay).toHaveLength(2);
  });

  it('lists exhibits with their inclusion proof at the checkpoint, and no image unless gathered', () => {
    const model = buildReportModel(inputFixture(), OPTS);
    expect(notesFor(model, 'custody prove inclusion 12 --size 812 --json')).toEqual(['/proof']);
    const blocks: readonly Block[] = model.sections.find((s) => s.id === 'exhibits')?.blocks ?? [];
    expect(blocks.some((b) => b.kind === 'image')).toBe(false);
  });

  it('is the same model for the same input', () => {
    expect(buildReportModel(inputFixture(), OPTS)).toEqual(buildReportModel(inputFixture(), OPTS));
  });
});

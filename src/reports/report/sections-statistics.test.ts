// Issue 11, "the report a judge can read": the findings of a stratified plan with one stratum
// left out, one finding the examiners could not agree on and one they agreed on only tentatively.
import { describe, expect, it } from 'vitest';
import type { FindingStatistics, StatisticsReport } from '../../examination/statistics/index.js';
import { wilsonInterval } from '../../stats/index.js';
import { buildReportModel } from './build-model.js';
import type { ReportBag } from './bag.js';
import type { ReportModel } from './model.js';
import { renderReportHtml } from './render-html.js';
import { inputFixture, STATISTICS_FIXTURE } from './report.fixture.js';
import { NEEDS_THE_ARCHIVE } from './scope.js';
import { SAMPLING_ERROR_ONLY } from './sections-statistics.js';
import { coveredPopulation } from './statistics-population.js';
import { alphaBand, NO_CONCLUSION } from './statistics-tables.js';

const OPTS = {
  template: 'tribunal',
  generatedAt: '2026-11-30T00:00:00.000Z',
  codeVersion: 'custody 0.1.0',
} as const;
const NO_CHARTS = { perDay: null, deaths: null, prevalence: null };

const base = STATISTICS_FIXTURE.findings[0] as FindingStatistics;

function alpha(value: number): FindingStatistics['agreement'] {
  const a = base.agreement;
  if (a === null) throw new Error('fixture has agreement');
  const [coef] = a.coefficients;
  if (coef === undefined) throw new Error('fixture has alpha');
  return {
    ...a,
    coefficients: [
      {
        ...coef,
        value,
        interval: { ...coef.interval, lower: value - 0.1, upper: Math.min(1, value + 0.1) },
      },
    ],
  };
}

function finding(
  code: string,
  label: string,
  a: number,
  excluded: readonly string[],
): FindingStatistics {
  return {
    ...base,
    code,
    label,
    present: 68,
    absent: 29,
    assessed: 97,
    proportion: 68 / 97,
    wilson: null,
    clopper_pearson: null,
    population: null,
    stratified: {
      estimate: 0.697,
      standard_error: 0.04,
      estimated_count: 102.4,
      interval: { method: 'Wilson (Kish effective n)', lower: 0.601, upper: 0.782 },
      covered_population: [['U1', 100], ['U2', 47], ['unattributed', 3]].filter(([n]) => !excluded.includes(n as string)).reduce((sum, [, p]) => sum + (p as number), 0),
      frame_population: 150,
      strata: [
        { name: 'U1', population: 100, sampled: 60, present: 45 },
        { name: 'U2', population: 47, sampled: 36, present: 23 },
        { name: 'unattributed', population: 3, sampled: 1, present: 0 },
      ],
      excluded_strata: excluded,
    },
    sentence: `68 of 97 examined individuals (weighted estimate 70%; 95% CI 60–78%) showed ${label.toLowerCase()}.`,
    breakdowns: {
      unit: [
        {
          key: 'U1',
          label: 'Military Security Branch',
          present: 45,
          absent: 15,
          cannot_assess: 0,
          assessed: 60,
          proportion: 0.75,
        },
        {
          key: 'U2',
          label: 'Branch 227',
          present: 23,
          absent: 13,
          cannot_assess: 1,
          assessed: 36,
          proportion: 23 / 36,
        },
      ],
      month: [],
      sex: [],
      age_band: [],
    },
    agreement: alpha(a),
  };
}

const STRATIFIED: StatisticsReport = {
  ...STATISTICS_FIXTURE,
  sample: {
    ...STATISTICS_FIXTURE.sample,
    id: 'S2',
    name: 'Branch sample',
    method: 'stratified',
    stratify: 'unit',
    size: 100,
    frame_size: 150,
  },
  findings: [
    finding('emaciation', 'Emaciation', 0.85, ['unattributed']),
    finding('burns', 'Burns', 0.45, ['unattributed']),
    finding('eye_injury', 'Eye injury', 0.72, ['unattributed']),
  ],
};

const INPUT = inputFixture({
  statistics: [STRATIFIED],
  unitChanges: { 'Branch sample': [] },
  strataDrawn: {
    'Branch sample': [
      { name: 'U1', n: 62 },
      { name: 'U2', n: 37 },
      { name: 'unattributed', n: 1 },
    ],
  },
  subjects: {
    ...inputFixture().subjects,
    by_unit: [
      { unit: 'U1', name_en: 'Military Security Branch', name_ar: null, count: 100 },
      { unit: 'U2', name_en: 'Branch 227', name_ar: null, count: 47 },
    ],
  },
});

function sectionText(model: ReportModel, id: string): string {
  const page = renderReportHtml(
    { ...model, sections: model.sections.filter((s) => s.id === id) },
    NO_CHARTS,
  );
  return page
    .slice(page.indexOf('<section'), page.indexOf('<section id="notes"'))
    .replace(/<sup class="fn">.*?<\/sup>/g, '')
    .replace(/<[^>]+>/g, '')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&');
}

describe('findings a judge can read', () => {
  const model = buildReportModel(INPUT, OPTS);
  const findings = sectionText(model, 'findings');

  it('labels the weighted estimate as weighted, beside the raw present of assessed', () => {
    expect(findings).toContain('Weighted prevalence');
    expect(findings).toContain('68 of 97');
    expect(findings).toContain('69.7% weighted');
  });

  it('names the population each estimate covers, with its interval, and the strata left out', () => {
    // Named once when every finding covers the same strata, and referred back to in each.
    expect(findings).toContain(
      'The population. Each weighted estimate below, and its 95% interval, describes the 147 catalogued subjects in the covered strata (the frame held 150; left out, with fewer than two cases assessed so that no variance can be estimated: no unit recorded, 3 catalogued subjects); “≈ N of them” is the estimate applied to that number.',
    );
    expect(findings).toContain(
      'Weighted estimate 69.7% (95% interval 60.1%–78.2%) of those 147 catalogued subjects: ≈ 102 of them.',
    );
    // Named in each finding when they differ.
    const mixed = buildReportModel(
      inputFixture({
        statistics: [
          {
            ...STRATIFIED,
            findings: [
              finding('emaciation', 'Emaciation', 0.9, []),
              finding('burns', 'Burns', 0.9, ['unattributed']),
            ],
          },
        ],
      }),
      OPTS,
    );
    const text = sectionText(mixed, 'findings');
    expect(text).not.toContain('The population.');
    expect(text).toContain(
      'Weighted estimate 69.7% (95% interval 60.1%–78.2%) of the 150 catalogued subjects in the frame: ≈ 102 of them.',
    );
    expect(text).toContain(
      'Weighted estimate 69.7% (95% interval 60.1%–78.2%) of the 147 catalogued subjects in the covered strata (the frame held 150; left out, with fewer than two cases assessed so that no variance can be estimated: no unit recorded, 3 catalogued subjects): ≈ 102 of them.',
    );
  });

  it('names the population of a simple random sample: the frame, and the population stated for the plan', () => {
    const srs = sectionText(buildReportModel(inputFixture(), OPTS), 'findings');
    expect(srs).toContain(
      'The proportion 62.0% (95% interval 54.0%–69.4%) describes the 2000 catalogued subjects in the sampling frame; in the population of 2000 stated for the plan: ≈ 1240.',
    );
    expect(srs).not.toContain('weighted');
  });

  it('reads the covered population from the statistics once they carry it (contract §3), and cites it', () => {
    const f = finding('emaciation', 'Emaciation', 0.9, ['unattributed']);
    // Statistics written before contract §3 (an older bag) lack the field: summed from the strata.
    const older: Record<string, unknown> = { ...f.stratified };
    delete older.covered_population;
    delete older.frame_population;
    const old = { ...f, stratified: older } as unknown as FindingStatistics;
    const given = {
      ...f,
      stratified: { ...f.stratified, covered_population: 147 },
    } as FindingStatistics;
    expect(coveredPopulation(old, 0)).toEqual({ value: 147, at: null });
    expect(coveredPopulation(given, 2)).toEqual({
      value: 147,
      at: '/findings/2/stratified/covered_population',
    });
  });

  it('flags α below 0.667 (no conclusion should rest on it) and between 0.667 and 0.800 (tentative), citing Krippendorff', () => {
    expect([alphaBand(0.8), alphaBand(0.7999), alphaBand(0.667), alphaBand(0.6669)]).toEqual([
      'reliable',
      'tentative',
      'tentative',
      'unreliable',
    ]);
    expect(findings).toContain(`Burns: α = 0.450, below 0.667: ${NO_CONCLUSION}.`);
    expect(findings).toContain('Eye injury: α = 0.720, between 0.667 and 0.800: tentative.');
    expect(findings).not.toMatch(/Emaciation: α = /);
    expect(findings).toContain('α = 0.850 reliable (95%: 0.75 to 0.95)');
    expect(findings).toContain('α = 0.450 UNRELIABLE (95%: 0.35 to 0.55)');
    expect(findings).toContain('α = 0.720 TENTATIVE (95%: 0.62 to 0.82)');
    expect(findings).toContain('Krippendorff, Content Analysis');
    const html = renderReportHtml(model, NO_CHARTS);
    expect(html).toMatch(/<p class="warning"><strong>Burns: α = 0\.450, below 0\.667/);
  });

  it('says in the findings that the intervals cover sampling error only', () => {
    expect(findings).toContain(SAMPLING_ERROR_ONLY);
  });

  it('breaks each finding down by security branch with a Wilson interval per row, reproducible with custody interval', () => {
    const w = wilsonInterval(23, 36);
    expect(findings).toContain(
      'Each finding by security branch (unit), among the final cases, with 95% Wilson intervals',
    );
    expect(findings).toContain(
      `Branch 22723 of 3663.9%${(w.lower * 100).toFixed(1)}%–${(w.upper * 100).toFixed(1)}%`,
    );
    const note = model.footnotes.find(
      (f) =>
        f.command.join(' ') === 'custody interval --successes 23 --trials 36 --json' &&
        f.pointer === '/wilson/lower',
    );
    expect(note?.value).toBe(w.lower);
  });

  it('lists the strata: branch, frame size, drawn (from the manifest entry), assessed, and which were left out', () => {
    expect(findings).toContain('Strata of sample “Branch sample”');
    expect(findings).toContain('EmaciationMilitary Security Branch100626045yes');
    expect(findings).toContain('Emaciationno unit recorded3110left out: fewer than two assessed');
    const drawn = model.footnotes.find((f) => f.pointer === '/entry/details/strata/1/n');
    expect(drawn?.command.join(' ')).toBe('custody log --from 702 --to 703 --json');
    expect(drawn?.value).toBe(37);
  });

  it('never calls the sampling unit a "unit": "unit" is the security branch', () => {
    const all = model.sections.map((s) => sectionText(model, s.id)).join('\n');
    expect(all).not.toMatch(/unit sampled|sampling unit|units? sampled/i);
    expect(sectionText(model, 'methodology')).toContain(
      'What was sampled: catalogued subjects (each case is one person); method: stratified by security branch (unit).',
    );
  });
});

describe('the cover and --bag', () => {
  const BAG: ReportBag = {
    dir: 'case-bag',
    note: '',
    statistics: new Map([
      ['data/tables/statistics-S2.json', { sample: { name: 'Branch sample' } }],
    ]),
    items: new Set(['I7']),
  };

  it("prints the root in hex and in the signed note's base64 side by side, and says they are the same value", () => {
    const cover = sectionText(buildReportModel(INPUT, OPTS), 'cover');
    const b64 = Buffer.from('ab'.repeat(32), 'hex').toString('base64');
    expect(cover).toContain(`${'ab'.repeat(32)}${b64}`);
    expect(cover).toContain('The two are the same 32 bytes');
    expect(cover).toContain(
      'Checkpoint: tree size 812 (the first 812 ledger entries), signed with the archive key',
    );
  });

  it("footnotes each statistics figure with its cell in the bag, and the verifiers' --explain commands on it", () => {
    const model = buildReportModel(INPUT, { ...OPTS, bag: BAG });
    const present = model.footnotes.find((f) => f.pointer === '/findings/0/present');
    expect(present?.bag).toBe('data/tables/statistics-S2.json#/findings/0/present');
    const html = renderReportHtml(model, NO_CHARTS);
    expect(html).toContain(
      `custody verify-export case-bag --explain &#39;data/tables/statistics-S2.json#/findings/0/present&#39;`,
    );
    expect(html).toContain(
      `python3 case-bag/verify_bag.py --explain &#39;&lt;bag file&gt;#&lt;pointer&gt;&#39;`,
    );
    expect(model.footnotes.find((f) => f.pointer === '/root')?.bag).toBe(
      'custody/export.json#/root',
    );
    expect(model.footnotes.find((f) => f.command.includes('prove'))?.bag).toBe(
      'custody/proofs/I7.json#/proof',
    );
    // Figures over the whole collection have no place in the bag.
    expect(
      model.footnotes.find((f) => f.command.join(' ') === 'custody items --at 812 --json')?.bag,
    ).toBeUndefined();
  });

  it('marks every section computed over the whole collection as needing the archive, and no other', () => {
    const model = buildReportModel(INPUT, { ...OPTS, bag: BAG });
    const marked = model.sections
      .filter((s) => sectionText(model, s.id).includes(NEEDS_THE_ARCHIVE))
      .map((s) => s.id);
    expect(marked).toEqual(['collection', 'integrity', 'authenticity', 'catalogue']);
    expect(sectionText(model, 'findings')).toContain(
      'Reproducible from the bag: each figure of sample “Branch sample” is also footnoted with its cell of data/tables/statistics-S2.json',
    );
    const none = buildReportModel(INPUT, OPTS);
    expect(none.sections.some((s) => sectionText(none, s.id).includes(NEEDS_THE_ARCHIVE))).toBe(
      false,
    );
  });
});

// Which population a prevalence describes, in words a judge can check: the interval the report
// states for each finding, the estimated number, and the sentence naming the frame (or, for a
// stratified plan, the strata that entered the estimate and those left out, by name).
import type {
  FindingStatistics,
  Interval95,
  StatisticsReport,
} from '../../examination/statistics/index.js';
import type { CiteContext } from './cite.js';
import { pointer as ptr } from './footnotes.js';
import type { Block, Inline } from './model.js';
import type { BranchName } from './statistics-tables.js';

/** The interval the report states: the stratified one for stratified plans, else Wilson. */
export function headlineInterval(
  f: FindingStatistics,
  i: number,
): { interval: Interval95; at: string } | null {
  if (f.stratified !== null)
    return { interval: f.stratified.interval, at: ptr('findings', i, 'stratified', 'interval') };
  if (f.wilson !== null) return { interval: f.wilson, at: ptr('findings', i, 'wilson') };
  if (f.clopper_pearson !== null)
    return { interval: f.clopper_pearson, at: ptr('findings', i, 'clopper_pearson') };
  return null;
}

export function intervalCell(
  c: CiteContext,
  q: string[],
  h: { interval: Interval95; at: string } | null,
): Inline[] {
  if (h === null) return ['—'];
  return [
    c.percent(q, `${h.at}/lower`, h.interval.lower),
    '–',
    c.percent(q, `${h.at}/upper`, h.interval.upper),
  ];
}

export function populationCell(
  c: CiteContext,
  q: string[],
  f: FindingStatistics,
  i: number,
): Inline[] {
  if (f.stratified !== null) {
    const covered = coveredPopulation(f, i);
    return [
      '≈ ',
      c.fixed(
        q,
        ptr('findings', i, 'stratified', 'estimated_count'),
        f.stratified.estimated_count,
        0,
      ),
      ' of ',
      covered.at === null ? String(covered.value) : c.value(q, covered.at, covered.value),
    ];
  }
  const pop = f.population;
  if (pop === null || pop.estimated_count === null) return ['—'];
  const base = ptr('findings', i, 'population');
  const out: Inline[] = [
    '≈ ',
    c.fixed(q, `${base}/estimated_count`, pop.estimated_count, 0),
    ' of ',
    c.value(q, `${base}/size`, pop.size),
  ];
  if (pop.count_interval !== null) {
    out.push(
      ' (',
      c.fixed(q, `${base}/count_interval/lower`, pop.count_interval.lower, 0),
      '–',
      c.fixed(q, `${base}/count_interval/upper`, pop.count_interval.upper, 0),
      `, ${pop.count_interval.method})`,
    );
  }
  return out;
}

/**
 * The population a stratified estimate covers: the frame's strata that entered it. Read from the
 * statistics (`stratified.covered_population`, contract §3) when they carry it; else summed here
 * over the strata not excluded (the one place to drop once every statistics file has it).
 */
export function coveredPopulation(
  f: FindingStatistics,
  i: number,
): { value: number; at: string | null } {
  const st = f.stratified;
  if (st === null) return { value: 0, at: null };
  const given = (st as { covered_population?: unknown }).covered_population;
  if (typeof given === 'number')
    return { value: given, at: ptr('findings', i, 'stratified', 'covered_population') };
  const value = st.strata
    .filter((r) => !st.excluded_strata.includes(r.name))
    .reduce((sum, r) => sum + r.population, 0);
  return { value, at: null };
}

/** Who the sample is drawn from, in words: "catalogued subjects" or "photographs (items)". */
function members(s: StatisticsReport): string {
  return s.sample.unit === 'subjects' ? 'catalogued subjects' : 'photographs (items)';
}

/**
 * The sentence naming the population an estimate covers, and its interval: "Weighted estimate
 * 69.7% (95% interval 60.1%–78.2%) of the 147 catalogued subjects in the frame: ≈ 102 of them."
 */
export function populationSentence(
  c: CiteContext,
  q: string[],
  s: StatisticsReport,
  f: FindingStatistics,
  i: number,
  name: BranchName,
  /** The population was named once for the whole sample (populationBlock): refer back to it. */
  named: boolean,
): Inline[] {
  const h = headlineInterval(f, i);
  // Cited after the estimate it follows, so that footnotes number in reading order.
  const interval = (): Inline[] =>
    h === null ? [] : [' (95% interval ', ...intervalCell(c, q, h), ')'];
  const st = f.stratified;
  if (st !== null) {
    const covered = coveredPopulation(f, i);
    const out: Inline[] = [
      'Weighted estimate ',
      c.percent(q, ptr('findings', i, 'stratified', 'estimate'), st.estimate),
      ...interval(),
      named ? ' of those ' : ' of the ',
      covered.at === null ? String(covered.value) : c.value(q, covered.at, covered.value),
      ` ${members(s)}`,
    ];
    if (!named) out.push(' ', ...coveredWhere(c, q, s, f, i, name));
    out.push(
      ': ≈ ',
      c.fixed(q, ptr('findings', i, 'stratified', 'estimated_count'), st.estimated_count, 0),
      ' of them.',
    );
    return out;
  }
  if (f.proportion === null) return [];
  const out: Inline[] = [
    'The proportion ',
    c.percent(q, ptr('findings', i, 'proportion'), f.proportion),
    ...interval(),
    ' describes the ',
    c.value(q, '/sample/frame_size', s.sample.frame_size),
    ` ${members(s)} in the sampling frame`,
  ];
  const pop = f.population;
  if (pop !== null && pop.estimated_count !== null)
    out.push(
      '; in the population of ',
      c.value(q, ptr('findings', i, 'population', 'size'), pop.size),
      ' stated for the plan: ≈ ',
      c.fixed(q, ptr('findings', i, 'population', 'estimated_count'), pop.estimated_count, 0),
    );
  out.push('.');
  return out;
}

/** "in the frame", or "in the covered strata (the frame held 32; left out, …: no unit recorded, 2 catalogued subjects)". */
function coveredWhere(
  c: CiteContext,
  q: string[],
  s: StatisticsReport,
  f: FindingStatistics,
  i: number,
  name: BranchName,
): Inline[] {
  const st = f.stratified;
  if (st === null || st.excluded_strata.length === 0) return ['in the frame'];
  const left: Inline[] = [];
  st.strata.forEach((r, j) => {
    if (!st.excluded_strata.includes(r.name)) return;
    if (left.length > 0) left.push('; ');
    left.push(
      `${s.sample.stratify === 'unit' ? name(r.name) : r.name}, `,
      c.value(q, ptr('findings', i, 'stratified', 'strata', j, 'population'), r.population),
      ` ${members(s)}`,
    );
  });
  return [
    'in the covered strata (the frame held ',
    c.value(q, '/sample/frame_size', s.sample.frame_size),
    '; left out, with fewer than two cases assessed so that no variance can be estimated: ',
    ...left,
    ')',
  ];
}

/**
 * When every finding of a stratified sample covers the same strata (the usual case), the
 * population is named once, before the findings, and each finding refers back to it.
 */
export function populationBlock(
  c: CiteContext,
  q: string[],
  s: StatisticsReport,
  name: BranchName,
): Block | null {
  const withEstimate = s.findings.flatMap((f, i) => (f.stratified === null ? [] : [{ f, i }]));
  const first = withEstimate[0];
  if (first === undefined || first.f.stratified === null) return null;
  const key = (f: FindingStatistics) => JSON.stringify(f.stratified?.excluded_strata ?? null);
  if (!withEstimate.every(({ f }) => key(f) === key(first.f))) return null;
  const covered = coveredPopulation(first.f, first.i);
  return {
    kind: 'p',
    parts: [
      { text: 'The population. ', strong: true },
      'Each weighted estimate below, and its 95% interval, describes the ',
      covered.at === null ? String(covered.value) : c.value(q, covered.at, covered.value),
      ` ${members(s)} `,
      ...coveredWhere(c, q, s, first.f, first.i, name),
      '; “≈ N of them” is the estimate applied to that number.',
    ],
  };
}

// Methodology and findings, from the statistics of each sampling plan (StatisticsReport, the shape
// of `custody stats --json`): how the sample was drawn so anyone can redraw it, how it was
// examined, and each finding's prevalence with its 95% interval, population extrapolation and
// inter-rater agreement.
import type {
  FindingStatistics,
  Interval95,
  StatisticsReport,
} from '../../examination/statistics/types.js';
import { unitText } from '../../catalogue/labels.service.js';
import type { UnitChange } from '../../catalogue/units/attribution.service.js';
import type { PrevalenceRow } from '../charts/index.js';
import { table, type CiteContext } from './cite.js';
import { pointer as ptr } from './footnotes.js';
import type { Block, Inline, Section } from './model.js';

const NO_PLAN = 'No sampling plan in this archive: no prevalence can be stated, and none is.';

function statsCommand(c: CiteContext, s: StatisticsReport): string[] {
  return c.at('stats', s.sample.name);
}

export function methodologySection(
  c: CiteContext,
  all: readonly StatisticsReport[],
  unitChanges: Readonly<Record<string, readonly UnitChange[]>>,
): Section {
  if (all.length === 0)
    return { id: 'methodology', title: 'Methodology', blocks: [{ kind: 'p', parts: [NO_PLAN] }] };
  const blocks: Block[] = [];
  for (const s of all) {
    const q = statsCommand(c, s);
    const p = s.sample;
    blocks.push(
      { kind: 'h3', text: `Sample “${p.name}”` },
      {
        kind: 'list',
        items: [
          [
            'Unit sampled: ',
            p.unit,
            '; method: ',
            p.method,
            p.stratify === null ? '' : `, stratified by ${p.stratify}`,
            '.',
          ],
          [
            'Frame: ',
            c.value(q, '/sample/frame_size', p.frame_size),
            ' members, digest ',
            c.mono(q, '/sample/frame_digest', p.frame_digest),
            ' (ledger entry ',
            c.value(q, '/sample/entries/frame', p.entries.frame),
            ').',
          ],
          [
            'Seed, fixed after the frame: ',
            c.mono(q, '/sample/seed', p.seed),
            ' (ledger entry ',
            c.value(q, '/sample/entries/seed', p.entries.seed),
            ').',
          ],
          ['Sample size: ', c.value(q, '/sample/size', p.size), '; procedure: ', p.procedure, '.'],
          [
            'Sample manifest digest: ',
            c.mono(q, '/sample/manifest_digest', p.manifest_digest),
            ' (ledger entry ',
            c.value(q, '/sample/entries/manifest', p.entries.manifest),
            ').',
          ],
          [
            'Codebook: ',
            c.value(q, '/codebook/version', s.codebook.version),
            ', digest ',
            c.mono(q, '/codebook/digest', s.codebook.digest),
            ' (definitions in the appendix).',
          ],
        ],
      },
      {
        kind: 'p',
        parts: [
          'Blind double examination: each sampled case was examined independently by at least two examiners, each of whom committed to their answers (a SHA-256 commitment in the ledger) before any answer was revealed. Disagreements were adjudicated, and only unanimous or adjudicated cases enter the prevalence. Of ',
          c.value(q, '/cases/sampled', s.cases.sampled),
          ' sampled cases, ',
          c.value(q, '/cases/revealed', s.cases.revealed),
          ' were revealed and ',
          c.value(q, '/cases/final', s.cases.final),
          ' final; ',
          c.value(q, '/cases/awaiting_submissions', s.cases.awaiting_submissions),
          ' await submissions and ',
          c.value(q, '/cases/awaiting_adjudication', s.cases.awaiting_adjudication),
          ' adjudication.',
        ],
      },
      ...attributionBlocks(c, q, s, unitChanges[p.name] ?? []),
    );
  }
  return { id: 'methodology', title: 'Methodology', blocks };
}

/**
 * Which attribution each figure follows, and the subjects whose unit changed after the frame was
 * fixed (as `custody stats` lists them): a by-unit breakdown counts them under their unit now, a
 * stratified estimate under the stratum they were drawn in.
 */
function attributionBlocks(
  c: CiteContext,
  q: string[],
  s: StatisticsReport,
  changes: readonly UnitChange[],
): Block[] {
  const at = ptr('unit_attribution', 'changed_after_frame');
  const lead: Inline[] = [
    `Breakdowns by unit follow each subject's unit at checkpoint ${s.checkpoint.tree_size}`,
    s.sample.stratify === null
      ? '. '
      : `; the stratified estimate keeps the strata as drawn when the frame was fixed (ledger entry ${s.sample.entries.frame}). `,
  ];
  if (changes.length === 0)
    return [{ kind: 'p', parts: [...lead, 'No subject changed unit after the frame was fixed', { text: '', note: c.notes.cite(q, `${at}/length`, 0) }, '.'] }];
  return [
    {
      kind: 'p',
      parts: [
        ...lead,
        c.value(q, `${at}/length`, changes.length),
        ' subject(s) changed unit after the frame was fixed:',
      ],
    },
    table(
      'Subjects whose unit changed after the frame was fixed',
      [
        ['Subject', 'text'],
        ['Unit when the frame was fixed', 'text'],
        ['Unit now', 'text'],
        ['Ledger entries and reasons', 'text'],
      ],
      changes.map((ch, i) => [
        [`${ch.number ?? '(no number)'} `, c.mono(q, ptr('unit_attribution', 'changed_after_frame', i, 'subject'), ch.subject)],
        unitText(ch.from),
        unitText(ch.to),
        ch.entries.map((e) => `${e.seq}: ${e.reason}`).join('; '),
      ]),
      '',
    ),
  ];
}

/** The interval the report states: the stratified one for stratified plans, else Wilson. */
function headlineInterval(
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

function intervalCell(
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

function populationCell(c: CiteContext, q: string[], f: FindingStatistics, i: number): Inline[] {
  if (f.stratified !== null) {
    return [
      '≈ ',
      c.fixed(
        q,
        ptr('findings', i, 'stratified', 'estimated_count'),
        f.stratified.estimated_count,
        0,
      ),
      ' (stratified estimate)',
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

function agreementCell(c: CiteContext, q: string[], f: FindingStatistics, i: number): Inline[] {
  const k = f.agreement?.coefficients.findIndex((x) => x.name === 'krippendorff_alpha') ?? -1;
  const coef = k < 0 ? undefined : f.agreement?.coefficients[k];
  if (coef === undefined || coef.value === null) return ['—'];
  return [
    'α = ',
    c.fixed(q, ptr('findings', i, 'agreement', 'coefficients', k, 'value'), coef.value, 2),
  ];
}

export function findingsSection(
  c: CiteContext,
  all: readonly StatisticsReport[],
): { section: Section; prevalence: PrevalenceRow[] | null } {
  if (all.length === 0)
    return {
      section: { id: 'findings', title: 'Findings', blocks: [{ kind: 'p', parts: [NO_PLAN] }] },
      prevalence: null,
    };
  const blocks: Block[] = [];
  let prevalence: PrevalenceRow[] | null = null;
  for (const s of all) {
    const q = statsCommand(c, s);
    blocks.push({ kind: 'h3', text: `Sample “${s.sample.name}”` });
    blocks.push({
      kind: 'list',
      items: s.findings.map((f, i) => [c.value(q, ptr('findings', i, 'sentence'), f.sentence)]),
    });
    blocks.push(
      table(
        'Prevalence of each finding among the final cases',
        [
          ['Finding', 'text'],
          ['Present', 'number'],
          ['Assessed', 'number'],
          ['Cannot assess', 'number'],
          ['Prevalence', 'number'],
          ['95% interval', 'text'],
          ['In the population', 'text'],
          ['Agreement', 'text'],
        ],
        s.findings.map((f, i) => [
          f.label,
          c.value(q, ptr('findings', i, 'present'), f.present),
          c.value(q, ptr('findings', i, 'assessed'), f.assessed),
          c.value(q, ptr('findings', i, 'cannot_assess'), f.cannot_assess),
          // A stratified plan's prevalence is the weighted estimate its interval belongs to.
          f.stratified !== null
            ? c.percent(q, ptr('findings', i, 'stratified', 'estimate'), f.stratified.estimate)
            : f.proportion === null
              ? '—'
              : c.percent(q, ptr('findings', i, 'proportion'), f.proportion),
          intervalCell(c, q, headlineInterval(f, i)),
          populationCell(c, q, f, i),
          agreementCell(c, q, f, i),
        ]),
        'No findings.',
      ),
      {
        kind: 'p',
        style: 'note',
        parts: [
          `95% intervals: ${[...new Set(s.findings.map((f, i) => headlineInterval(f, i)?.interval.method).filter((m) => m !== undefined))].join('; ') || 'none'}. ` +
            "Agreement: Krippendorff's alpha (nominal) on the examiners' independent answers, before adjudication. Rounded figures are exact in their footnotes.",
        ],
      },
    );
    const rows = s.findings.flatMap((f, i): PrevalenceRow[] => {
      const h = headlineInterval(f, i);
      const p = f.stratified?.estimate ?? f.proportion;
      return h === null || p === null || f.assessed < 1
        ? []
        : [
            {
              finding: f.code,
              label: f.label,
              proportion: p,
              lower: h.interval.lower,
              upper: h.interval.upper,
              n: f.assessed,
            },
          ];
    });
    // One chart per report: the first plan's (a tribunal report normally has one plan).
    if (prevalence === null && rows.length > 0) {
      prevalence = rows;
      blocks.push({
        kind: 'chart',
        chart: 'prevalence',
        caption: `Prevalence with 95% intervals, sample “${s.sample.name}”`,
        note: c.whole(q, '/findings', s.findings),
      });
    }
  }
  return { section: { id: 'findings', title: 'Findings', blocks }, prevalence };
}

// The parts of the findings that a judge weighs beside each prevalence: how far the examiners
// agreed (Krippendorff's alpha, on his own scale), the breakdown by security branch with an
// interval per row, and the strata the weighted estimate was built from. Words: the *sampling
// unit* is a subject (or a photograph) and is never called a unit here; "unit" alone, and
// "security branch (unit)", is the body that held the person.
import type { FindingStatistics, StatisticsReport } from '../../examination/statistics/index.js';
import { wilsonInterval } from '../../stats/index.js';
import { table, type CiteContext } from './cite.js';
import { pointer as ptr } from './footnotes.js';
import type { Block, Inline, Table } from './model.js';

/** Where the thresholds come from (his "Standards for data reliability"). */
export const KRIPPENDORFF_SOURCE =
  'K. Krippendorff, Content Analysis: An Introduction to Its Methodology, 2nd ed., Sage 2004, p. 241';

export const NO_CONCLUSION = "no conclusion should rest on this finding's coding";

export type AlphaBand = 'reliable' | 'tentative' | 'unreliable';

/** Krippendorff's thresholds: rely on α ≥ .800; .667 ≤ α < .800 for tentative conclusions only. */
export function alphaBand(alpha: number): AlphaBand {
  return alpha >= 0.8 ? 'reliable' : alpha >= 0.667 ? 'tentative' : 'unreliable';
}

/** Short, for the table cell; the warnings under the table say what each means. */
const BAND_TEXT: Record<AlphaBand, string> = {
  reliable: 'reliable',
  tentative: 'TENTATIVE',
  unreliable: 'UNRELIABLE',
};

function alphaOf(
  f: FindingStatistics,
): { k: number; value: number | null; lower: number | null; upper: number | null } | null {
  const k = f.agreement?.coefficients.findIndex((x) => x.name === 'krippendorff_alpha') ?? -1;
  const coef = k < 0 ? undefined : f.agreement?.coefficients[k];
  if (coef === undefined) return null;
  return { k, value: coef.value, lower: coef.interval.lower, upper: coef.interval.upper };
}

/** The agreement cell: α, its bootstrap interval, and where it falls on Krippendorff's scale. */
export function agreementCell(
  c: CiteContext,
  q: string[],
  f: FindingStatistics,
  i: number,
): Inline[] {
  const a = alphaOf(f);
  if (a === null || a.value === null) return ['not computable*'];
  const at = ptr('findings', i, 'agreement', 'coefficients', a.k);
  const band = alphaBand(a.value);
  const out: Inline[] = [
    'α = ',
    c.fixed(q, `${at}/value`, a.value, 3),
    ' ',
    { text: BAND_TEXT[band], ...(band === 'reliable' ? {} : { strong: true }) },
  ];
  // "−0.48 to 0.48": a dash between two signed numbers would read as a minus.
  if (a.lower !== null && a.upper !== null)
    out.push(
      ' (95%: ',
      c.fixed(q, `${at}/interval/lower`, a.lower, 2),
      ' to ',
      c.fixed(q, `${at}/interval/upper`, a.upper, 2),
      ')',
    );
  return out;
}

/** Blocks under the prevalence table: Krippendorff's scale, and each finding below it flagged. */
export function agreementBlocks(s: StatisticsReport): Block[] {
  const flagged = s.findings.flatMap((f) => {
    const v = alphaOf(f)?.value ?? null;
    return v === null || alphaBand(v) === 'reliable' ? [] : [{ f, v, band: alphaBand(v) }];
  });
  const blocks: Block[] = [
    {
      kind: 'p',
      style: 'note',
      parts: [
        "Agreement is Krippendorff's alpha (nominal) on the examiners' independent answers, before adjudication, with a 95% bootstrap interval. On its scale 1 is perfect agreement and 0 is no better than chance. Krippendorff's own thresholds: rely on a coding with α ≥ 0.800 (reliable); with 0.667 ≤ α < 0.800 draw tentative conclusions only (TENTATIVE); below 0.667 draw none (UNRELIABLE) (",
        KRIPPENDORFF_SOURCE,
        ').',
        ...(s.findings.some((f) => (alphaOf(f)?.value ?? null) === null)
          ? [
              ' *Not computable: too few cases with two answers, or every examiner gave the same answer on every case (no variation to agree on).',
            ]
          : []),
      ],
    },
  ];
  for (const { f, v, band } of flagged) {
    blocks.push({
      kind: 'p',
      style: 'warning',
      parts:
        band === 'unreliable'
          ? [
              {
                text: `${f.label}: α = ${v.toFixed(3)}, below 0.667: ${NO_CONCLUSION}.`,
                strong: true,
              },
              ' The examiners disagreed too often for its prevalence to be relied on, whatever its interval says.',
            ]
          : [
              {
                text: `${f.label}: α = ${v.toFixed(3)}, between 0.667 and 0.800: tentative.`,
                strong: true,
              },
              ' Conclusions drawn from this finding are tentative only.',
            ],
    });
  }
  return blocks;
}

/**
 * Said under the by-branch and strata tables: the findings seen in no final case, which they
 * leave out (each is "0 of N" in every row; the prevalence table above lists them).
 */
export function unseenFindings(s: StatisticsReport): Block | null {
  const unseen = s.findings.filter((f) => f.present === 0 && f.assessed > 0).map((f) => f.label);
  if (unseen.length === 0) return null;
  return {
    kind: 'p',
    style: 'note',
    parts: [
      `Left out of the tables below: the findings seen in no final case (${unseen.join(', ')}); each is present in none of the cases assessed, in every security branch and stratum, as the prevalence table above shows.`,
    ],
  };
}

/** "no branch recorded" for subjects without a unit; else the branch's name, else its id. */
export type BranchName = (unitId: string) => string;

/**
 * Each finding by security branch (the subject's unit at the checkpoint), with a Wilson 95%
 * interval per row; `custody interval` reproduces each interval from the row's two counts.
 */
export function byBranchTable(
  c: CiteContext,
  q: string[],
  s: StatisticsReport,
  name: BranchName,
): Table {
  const rows = s.findings.flatMap((f, i) =>
    f.breakdowns.unit.flatMap((r, j) => {
      if (r.assessed === 0 || f.present === 0) return [];
      const at = ptr('findings', i, 'breakdowns', 'unit', j);
      const iq = [
        'custody',
        'interval',
        '--successes',
        String(r.present),
        '--trials',
        String(r.assessed),
        '--json',
      ];
      const w = wilsonInterval(r.present, r.assessed);
      const noArchive = 'no archive needed: the interval from the two counts';
      return [
        [
          f.label,
          r.label ?? name(r.key),
          [
            c.value(q, `${at}/present`, r.present),
            ' of ',
            c.value(q, `${at}/assessed`, r.assessed),
          ],
          r.proportion === null ? '—' : c.percent(q, `${at}/proportion`, r.proportion),
          [
            c.percentNote(iq, '/wilson/lower', w.lower, noArchive),
            '–',
            c.percentNote(iq, '/wilson/upper', w.upper, noArchive),
          ],
        ],
      ];
    }),
  );
  return table(
    'Each finding by security branch (unit), among the final cases, with 95% Wilson intervals',
    [
      ['Finding', 'text'],
      ['Security branch (unit)', 'text'],
      ['Present of assessed', 'number'],
      ['Proportion', 'number'],
      ['95% interval', 'text'],
    ],
    rows,
    'No case has been assessed yet.',
  );
}

/**
 * The strata a weighted estimate is built from: per finding, each stratum's security branch,
 * its size in the frame, how many were drawn from it (the sample manifest), and how many of those
 * were assessed; a stratum left out of the estimate says so.
 */
export function strataTable(
  c: CiteContext,
  q: string[],
  s: StatisticsReport,
  name: BranchName,
  drawn: readonly { readonly name: string; readonly n: number }[] | undefined,
): Table | null {
  if (s.sample.method !== 'stratified') return null;
  const byName = s.sample.stratify === 'unit' ? name : (x: string) => x;
  const manifest = [
    'custody',
    'log',
    '--from',
    String(s.sample.entries.manifest),
    '--to',
    String(s.sample.entries.manifest + 1),
    '--json',
  ];
  const rows = s.findings.flatMap((f, i) => {
    const st = f.stratified;
    if (st === null || f.present === 0) return [];
    return st.strata.map((r, j) => {
      const at = ptr('findings', i, 'stratified', 'strata', j);
      const k = drawn?.findIndex((d) => d.name === r.name) ?? -1;
      const d = k < 0 ? undefined : drawn?.[k];
      const left = st.excluded_strata.includes(r.name);
      return [
        f.label,
        byName(r.name),
        c.value(q, `${at}/population`, r.population),
        d === undefined
          ? '—'
          : c.value(
              manifest,
              ptr('entry', 'details', 'strata', k, 'n'),
              d.n,
              'the sample manifest entry, as it stands in the ledger (in a bag: custody/ledger.jsonl)',
            ),
        c.value(q, `${at}/sampled`, r.sampled),
        c.value(q, `${at}/present`, r.present),
        left ? { text: 'left out: fewer than two assessed', strong: true } : 'yes',
      ];
    });
  });
  return table(
    `Strata of sample “${s.sample.name}” (stratified by ${s.sample.stratify === 'unit' ? 'security branch (unit) when the frame was fixed' : (s.sample.stratify ?? '')}), finding by finding`,
    [
      ['Finding', 'text'],
      [s.sample.stratify === 'unit' ? 'Stratum: security branch (unit)' : 'Stratum', 'text'],
      ['In the frame', 'number'],
      ['Drawn', 'number'],
      ['Assessed', 'number'],
      ['Present', 'number'],
      ['In the estimate', 'text'],
    ],
    rows,
    'No stratified estimate yet.',
  );
}

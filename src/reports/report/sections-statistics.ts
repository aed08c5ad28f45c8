// Methodology and findings, from the statistics of each sampling plan (StatisticsReport, the shape
// of `custody stats --json`): how the sample was drawn so anyone can redraw it, how it was
// examined, and each finding's prevalence with its 95% interval, population extrapolation and
// inter-rater agreement.
import type { StatisticsReport } from '../../examination/statistics/index.js';
import { unitText } from '../../catalogue/labels.service.js';
import type { UnitChange } from '../../catalogue/units/attribution.service.js';
import type { PrevalenceRow } from '../charts/index.js';
import { table, type CiteContext } from './cite.js';
import {
  headlineInterval,
  intervalCell,
  populationBlock,
  populationCell,
  populationSentence,
} from './statistics-population.js';
import {
  agreementBlocks,
  agreementCell,
  byBranchTable,
  strataTable,
  unseenFindings,
  type BranchName,
} from './statistics-tables.js';
import { pointer as ptr } from './footnotes.js';
import { prevalenceRows } from './prevalence-rows.js';
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
            'What was sampled: ',
            p.unit === 'subjects' ? 'catalogued subjects (each case is one person)' : 'photographs (each case is one item)',
            '; method: ',
            p.stratify === null
              ? p.method
              : `${p.method} by ${p.stratify === 'unit' ? 'security branch (unit)' : p.stratify}`,
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
    `Breakdowns by security branch (unit) follow each subject's unit at checkpoint ${s.checkpoint.tree_size}`,
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

/** Said in the findings themselves, not only in the appendix. */
export const SAMPLING_ERROR_ONLY =
  'The 95% intervals in this section cover sampling error only: how far a figure could move had another random sample been drawn. They do not cover examiner error (a photograph misread, or two examiners agreeing on a wrong reading). The agreement column shows how often the examiners agreed, not whether they were right.';

export interface FindingsContext {
  /** The name of a security branch (unit) by id, as catalogued. */
  readonly branchName: BranchName;
  /** By plan name: each stratum's sample size, from the sample manifest entry. */
  readonly strataDrawn: Readonly<Record<string, readonly { readonly name: string; readonly n: number }[]>>;
  readonly template: 'tribunal' | 'summary';
}

export function findingsSection(
  c: CiteContext,
  all: readonly StatisticsReport[],
  ctx: FindingsContext,
): { section: Section; prevalence: PrevalenceRow[] | null } {
  if (all.length === 0)
    return {
      section: { id: 'findings', title: 'Findings', blocks: [{ kind: 'p', parts: [NO_PLAN] }] },
      prevalence: null,
    };
  const blocks: Block[] = [{ kind: 'p', style: 'warning', parts: [SAMPLING_ERROR_ONLY] }];
  let prevalence: PrevalenceRow[] | null = null;
  for (const s of all) {
    const q = statsCommand(c, s);
    blocks.push({ kind: 'h3', text: `Sample “${s.sample.name}”` });
    const population = populationBlock(c, q, s, ctx.branchName);
    if (population !== null) blocks.push(population);
    blocks.push({
      kind: 'list',
      items: s.findings.map((f, i) => [
        c.value(q, ptr('findings', i, 'sentence'), f.sentence),
        ' ',
        ...populationSentence(c, q, s, f, i, ctx.branchName, population !== null),
      ]),
    });
    const weighted = s.sample.method === 'stratified';
    blocks.push(
      table(
        'Prevalence of each finding among the final cases',
        [
          ['Finding', 'text'],
          ['Raw: present of assessed', 'number'],
          ['Cannot assess', 'number'],
          [weighted ? 'Weighted prevalence' : 'Prevalence', 'number'],
          ['95% interval', 'text'],
          ['Estimated number', 'text'],
          ["Agreement (Krippendorff's α)", 'text'],
        ],
        s.findings.map((f, i) => [
          f.label,
          [
            c.value(q, ptr('findings', i, 'present'), f.present),
            ' of ',
            c.value(q, ptr('findings', i, 'assessed'), f.assessed),
          ],
          c.value(q, ptr('findings', i, 'cannot_assess'), f.cannot_assess),
          // A stratified plan's prevalence is the weighted estimate its interval belongs to.
          f.stratified !== null
            ? [c.percent(q, ptr('findings', i, 'stratified', 'estimate'), f.stratified.estimate), ' weighted']
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
            (weighted
              ? 'The prevalence of a stratified sample is the weighted estimate: each stratum’s proportion weighted by its share of the frame. It differs from present ÷ assessed, which over-represents the strata sampled more heavily; both are shown, and they do not contradict each other. '
              : '') +
            'Rounded figures are exact in their footnotes.',
        ],
      },
      ...agreementBlocks(s),
    );
    const rows = prevalenceRows(s);
    // One chart per report: the first plan's (a tribunal report normally has one plan).
    if (prevalence === null && rows.length > 0) {
      prevalence = rows;
      // Cited by the number of findings drawn: each value drawn is footnoted in the table above.
      // (The whole of /findings is not cited: `custody stats --json` adds unit names to its
      // breakdown rows that the bag's statistics file does not carry.)
      blocks.push({
        kind: 'chart',
        chart: 'prevalence',
        caption: `Prevalence with 95% intervals, sample “${s.sample.name}”: the figures of the table above, each footnoted there`,
        note: c.notes.cite(q, '/findings/length', s.findings.length),
      });
    }
    const unseen = unseenFindings(s);
    blocks.push(
      { kind: 'h3', text: `By security branch (unit), sample “${s.sample.name}”` },
      ...(unseen === null ? [] : [unseen]),
      byBranchTable(c, q, s, ctx.branchName),
    );
    const strata =
      ctx.template === 'tribunal'
        ? strataTable(c, q, s, ctx.branchName, ctx.strataDrawn[s.sample.name])
        : null;
    if (strata !== null) blocks.push(strata);
  }
  return { section: { id: 'findings', title: 'Findings', blocks }, prevalence };
}

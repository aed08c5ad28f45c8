// Builds the report model from what was gathered: pure, so the same input gives the same model,
// and so the same HTML, byte for byte (only `generated` differs between two runs).
import { INDICATOR_DOCS } from '../../analysis/indicators/index.js';
import { bagLocator, statisticsFile, type ReportBag } from './bag.js';
import { coverSection } from './cover.js';
import { CiteContext, table } from './cite.js';
import { pointer as ptr } from './footnotes.js';
import type { ReportInput } from './input.js';
import type { Block, ReportModel, ReportTemplate, Section } from './model.js';
import {
  authenticitySection,
  catalogueSection,
  collectionSection,
  exhibitImageBlocks,
  exhibitShows,
  imagesNotice,
} from './sections-collection.js';
import { bagScope, needsTheArchive } from './scope.js';
import { findingsSection, methodologySection } from './sections-statistics.js';

export interface BuildOptions {
  readonly template: ReportTemplate;
  /** RFC 3339; printed on the one line that is allowed to differ between runs. */
  readonly generatedAt: string;
  readonly codeVersion: string;
  /** `report --bag`: the bag the report is drawn at (its checkpoint already checked against the archive). */
  readonly bag?: ReportBag | null;
}

export function buildReportModel(input: ReportInput, opts: BuildOptions): ReportModel {
  const bag = opts.bag ?? null;
  const size = input.checkpoint.size;
  const c = new CiteContext(
    size,
    bag === null ? undefined : bagLocator(bag, size, input.statistics, input.exhibits),
  );
  // With --bag, the sections built from the whole collection say so (scope.ts); the others'
  // figures are footnoted with their place in the bag.
  const archiveOnly = (s: Section): Section => (bag === null ? s : needsTheArchive(s, bag.dir));
  // Sections are built in reading order, so footnotes are numbered in order of appearance.
  const sections: Section[] = [withNotice(coverSection(c, input, bag), imagesNotice(input))];
  const collection = collectionSection(c, input, opts.template);
  sections.push(
    archiveOnly(collection.section),
    archiveOnly(integritySection(c, input)),
    archiveOnly(authenticitySection(c, input, opts.template)),
  );
  const catalogue = catalogueSection(c, input);
  sections.push(archiveOnly(catalogue.section));
  const inBag = (s: (typeof input.statistics)[number]) => statisticsFile(bag, s);
  if (opts.template === 'tribunal')
    sections.push(bagScope(methodologySection(c, input.statistics, input.unitChanges), bag, input.statistics, inBag));
  const findings = findingsSection(c, input.statistics, {
    branchName: branchNames(input),
    strataDrawn: input.strataDrawn ?? {},
    template: opts.template,
  });
  sections.push(bagScope(findings.section, bag, input.statistics, inBag));
  if (opts.template === 'tribunal') {
    const exhibits = exhibitsSection(c, input);
    const outside = input.exhibits.filter((e) => bag !== null && !bag.items.has(e.item));
    sections.push(outside.length === 0 ? exhibits : needsTheArchive(exhibits, bag?.dir ?? '', outside.map((e) => e.item)), appendixSection(input));
  }
  return {
    template: opts.template,
    title: opts.template === 'tribunal' ? 'Evidence report' : 'Summary report',
    subtitle: `${input.archive.origin} at checkpoint ${input.checkpoint.size}`,
    generated: { at: opts.generatedAt, codeVersion: opts.codeVersion },
    checkpointSize: input.checkpoint.size,
    ...(bag === null ? {} : { bagDir: bag.dir }),
    sections,
    footnotes: c.notes.list(),
    charts: {
      perDay: collection.perDay,
      deaths: catalogue.deaths,
      prevalence: findings.prevalence,
    },
  };
}

function withNotice(section: Section, notice: Block | null): Section {
  return notice === null ? section : { ...section, blocks: [...section.blocks, notice] };
}

/** A security branch's name by unit id, as the catalogue counts name it. */
function branchNames(input: ReportInput): (unitId: string) => string {
  const names = new Map(
    input.subjects.by_unit.map((u) => [
      u.unit,
      [u.name_en, u.name_ar].filter((x) => x !== null).join(' — '),
    ]),
  );
  return (id) => (id === 'unattributed' ? 'no unit recorded' : names.get(id) || id);
}

function integritySection(c: CiteContext, input: ReportInput): Section {
  const v = input.verify;
  const q = ['custody', 'verify', '--json'];
  const asRun = 'verify has no --at: it checks the whole archive as it is when run';
  const n = (p: string, value: number) => c.value(q, p, value, asRun);
  const blocks: Block[] = [
    {
      kind: 'p',
      parts: [
        'A full verification (',
        { text: 'custody verify', mono: true },
        ') was run when this report was generated. Result: ',
        {
          text: v.ok ? 'VERIFIED, the archive is intact' : 'VERIFICATION FAILED',
          strong: true,
          note: c.notes.cite(q, '/ok', v.ok, asRun),
        },
        '. It re-hashed ',
        n('/objects/hashed', v.objectsHashed),
        ' objects (',
        n('/objects/bytes', v.bytesHashed),
        ' bytes), replayed the ledger of ',
        n('/ledger/size', v.ledgerSize),
        ' entries and checked ',
        n('/checkpoints/verified', v.checkpointsVerified),
        ' of ',
        n('/checkpoints/stored', v.checkpointsStored),
        ` stored checkpoints (signature and root), checkpoint ${input.checkpoint.size} among them.`,
      ],
      ...(v.ok ? {} : { style: 'warning' as const }),
      volatile: 'verification',
    },
  ];
  if (v.problems.length > 0) {
    blocks.push({
      kind: 'list',
      items: v.problems.map((p) => [{ text: p.code, mono: true }, `: ${p.message}`]),
    });
  }
  blocks.push(
    { kind: 'p', parts: ['To repeat it, anyone holding the archive (or a copy) runs:'] },
    {
      kind: 'pre',
      text: `custody checkpoint --at ${input.checkpoint.size} > checkpoint-${input.checkpoint.size}.txt\ncustody verify --trusted-checkpoint checkpoint-${input.checkpoint.size}.txt`,
    },
    {
      kind: 'p',
      parts: [
        `The second command re-hashes every object, replays the ledger to every checkpoint's root, checks every signature, and proves (RFC 9162 consistency proof) that today's ledger extends the one checkpoint ${input.checkpoint.size} signed.`,
      ],
    },
  );
  return { id: 'integrity', title: 'Integrity', blocks };
}

function exhibitsSection(c: CiteContext, input: ReportInput): Section {
  const size = input.checkpoint.size;
  const blocks: Block[] = [
    {
      kind: 'p',
      parts: [
        `Each exhibit is an item at checkpoint ${size}: its SHA-256, the ledger entry that recorded its receipt, and the RFC 9162 inclusion proof of that entry in the tree of size ${size} (sibling hashes, leaf to root), which with the signed checkpoint proves the receipt was recorded.`,
      ],
    },
    table(
      'Exhibits',
      [
        ['No.', 'text'],
        ['Item', 'text'],
        ['Shows', 'text'],
        ['SHA-256', 'text'],
        ['Ledger index', 'number'],
        ['Inclusion proof', 'text'],
      ],
      input.exhibits.map((e, i) => {
        const show = c.at('show', e.item);
        const proveQ = [
          'custody',
          'prove',
          'inclusion',
          String(e.seq),
          '--size',
          String(size),
          '--json',
        ];
        return [
          `E${i + 1}`,
          [{ text: e.item, mono: true }, ' ', { text: e.name, isolate: true }],
          exhibitShows(e),
          c.mono(show, '/sha256', e.sha256),
          c.value(show, ptr('item', 'seq'), e.seq),
          { text: e.proof.join(' '), mono: true, note: c.whole(proveQ, '/proof', e.proof) },
        ];
      }),
      'No exhibits were selected (custody report --exhibits ITEM,…).',
    ),
  ];
  blocks.push(...exhibitImageBlocks(input));
  return { id: 'exhibits', title: 'Exhibits', blocks };
}

const LIMITATIONS: readonly string[] = [
  'Authenticity indicators point an expert at what to examine; none is a verdict that an image was altered, and each has innocent explanations (listed above).',
  'Figures are as of the checkpoint. Later intake, withdrawals and catalogue edits are not reflected; a report at a later checkpoint shows them.',
  'Subjects are people as catalogued, not a census of the dead; a missing unit or month of death is shown as such, never guessed.',
  'Camera days are the dates the cameras recorded; a camera clock may be wrong or never set.',
  'Near-duplicate clusters are found by perceptual hashing (PDQ); a cluster is a lead for an examiner, not proof of a common original.',
  'The verification result describes the archive when the report was generated; repeat it with the commands given.',
  'Prevalence figures describe the sampling frame they were drawn from (of a stratified plan, the strata that entered the estimate, as each sample states), within the stated 95% intervals, and only the final (unanimous or adjudicated) cases. The intervals cover sampling error only, not examiner error; agreement (Krippendorff’s α) is reported beside each finding, and a finding coded with α below 0.667 supports no conclusion.',
];

function appendixSection(input: ReportInput): Section {
  const cb = input.codebook;
  return {
    id: 'appendix',
    title: 'Appendix: definitions and limitations',
    blocks: [
      { kind: 'h3', text: `Findings (codebook ${cb.version})` },
      table(
        'Finding definitions',
        [
          ['Code', 'text'],
          ['Finding', 'text'],
          ['Definition', 'text'],
        ],
        cb.findings.map((f) => [{ text: f.code, mono: true }, f.label, f.definition]),
        'The codebook defines no findings.',
      ),
      { kind: 'h3', text: 'Authenticity indicators' },
      table(
        'Indicator definitions',
        [
          ['Code', 'text'],
          ['What it compares, and innocent explanations', 'text'],
        ],
        Object.entries(INDICATOR_DOCS).map(([code, doc]) => [{ text: code, mono: true }, doc]),
        '',
      ),
      { kind: 'h3', text: 'Limitations' },
      { kind: 'list', items: LIMITATIONS.map((l) => [l]) },
    ],
  };
}

// Gathers what a report is made of from an archive opened at one checkpoint (`openArchive(…,
// { at: N })`), through the same services the cited commands use, so each footnote's command
// prints the value gathered here. Verification, thumbnails and statistics come in as ports.
import {
  indicatorsFor,
  indicatorTime,
  loadImageFacts,
  type AuthenticityPorts,
} from '../../analysis/authenticity.service.js';
import { summariseCollection } from '../../analysis/indicators/index.js';
import { archiveSimilarity } from '../../analysis/similarity/archive-similarity.service.js';
import { CatalogueLabels } from '../../catalogue/labels.service.js';
import { unitChangesAfter } from '../../catalogue/units/attribution.service.js';
import { catalogueCounts } from '../../catalogue/units/counts.service.js';
import { parseCheckpoint, toHex, hint } from '../../core/index.js';
import { codebookDigest, DEFAULT_CODEBOOK, DEFAULT_CODEBOOKS } from '../../examination/codebook/index.js';
import { actionFieldsOf, isSignedCheckpoint } from '../../ledger/index.js';
import type { Ledger } from '../../ledger/ledger.service.js';
import type { ArchiveManifest } from '../../archive/index.js';
import type { ArchiveIndexRepository } from '../../db/archive-index.repository.js';
import type { StatisticsReport } from '../../examination/statistics/index.js';
import { ReportError } from './errors.js';
import type { FileLabel, ReportInput, SubjectLabel } from './input.js';

/**
 * The archive at one checkpoint as the report reads it: the reads made here, plus the ports of
 * the services it calls (the same ones the cited commands call). An open Archive implements it.
 */
export type ReportSnapshot = {
  readonly treeSize: number;
  readonly verifierKey: string;
  readonly manifest: Pick<ArchiveManifest, 'id' | 'origin'>;
  readonly ledger: Pick<Ledger, 'checkpointAt' | 'checkpointSizes' | 'read' | 'inclusionProof' | 'size' | 'matchesSignedRoot'>;
  readonly index: Pick<ArchiveIndexRepository, 'listDeliveries' | 'countItems' | 'listItems' | 'listSubjects' | 'getItem'>;
} & AuthenticityPorts &
  Parameters<typeof archiveSimilarity>[0] &
  Parameters<typeof unitChangesAfter>[0] &
  Parameters<typeof catalogueCounts>[0] &
  Parameters<typeof CatalogueLabels.load>[0];

/** `A`: the snapshot's own type, handed back to `statistics` (whose composition may need more of it). */
export interface GatherPorts<A extends ReportSnapshot = ReportSnapshot> {
  /** The result of `custody verify` run on the whole archive while the report is made. */
  readonly verify: ReportInput['verify'];
  /** data: URI of an object's 256 px thumbnail, null when withdrawn (only called with --include-images). */
  readonly thumbnail: ((sha256: string) => Promise<string | null>) | null;
  /** The thumbnails are the originals, not blurred (--unblurred-images): said on the cover. */
  readonly unblurred?: boolean;
  /** One StatisticsReport per sampling plan at this checkpoint (`custody stats`). */
  readonly statistics: (archive: A) => Promise<StatisticsReport[]>;
}

/** The signed checkpoint at `size`, or REPORT_NO_CHECKPOINT: a report is drawn at a signed one. */
export async function signedCheckpoint(
  archive: { readonly ledger: Pick<Ledger, 'checkpointAt' | 'checkpointSizes'> },
  size: number,
): Promise<{ note: string; root: string }> {
  const note = await archive.ledger.checkpointAt(size);
  if (note === null) {
    const signed = await archive.ledger.checkpointSizes();
    throw new ReportError(
      'REPORT_NO_CHECKPOINT',
      `no checkpoint was signed at tree size ${size}; signed sizes: ${signed.slice(-5).join(', ') || 'none'}`,
      { details: hint({ remedy: ['show-checkpoint'] }) },
    );
  }
  const body = note.slice(0, note.indexOf('\n\n') + 1);
  return { note, root: parseCheckpoint(body).root.toString('hex') };
}

export async function gatherReportInput<A extends ReportSnapshot>(
  archive: A,
  exhibitIds: readonly string[],
  ports: GatherPorts<A>,
): Promise<ReportInput> {
  const size = archive.treeSize;
  const { note, root } = await signedCheckpoint(archive, size);
  const time = await indicatorTime(archive, size);
  const deliveries = [];
  for (const d of await archive.index.listDeliveries()) {
    deliveries.push({
      id: d.id,
      source: d.source,
      opened_at: d.opened_at,
      closed: d.closed_seq !== null,
      items: await archive.index.countItems(d.id),
    });
  }
  const items = await archive.index.listItems();
  const perObject = new Map<string, number>();
  for (const i of items) perObject.set(i.sha256, (perObject.get(i.sha256) ?? 0) + 1);
  const duplicates = [...perObject.entries()]
    .filter(([, n]) => n > 1)
    .map(([sha256, n]) => ({ sha256, items: n }))
    .sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1));
  const facts = await loadImageFacts(archive);
  const summary = summariseCollection(facts, { now: time });
  const label = await fileLabels(archive);
  const flagged = [];
  for (const a of summary.anomalies) {
    const indicators = (await indicatorsFor(archive, a.sha256, time, facts)) ?? [];
    const itemIds = facts.find((f) => f.sha256 === a.sha256)?.items.map((i) => i.id) ?? [];
    flagged.push({
      sha256: a.sha256,
      items: itemIds,
      files: itemIds.map(label),
      indicators: indicators.map((i) => ({ code: i.code, explanation: i.explanation })),
    });
  }
  const similarity = await archiveSimilarity(archive);
  const statistics = await ports.statistics(archive);
  // As `custody stats PLAN --at N` lists them: read from the ledger up to this checkpoint.
  const unitChanges: Record<string, Awaited<ReturnType<typeof unitChangesAfter>>> = {};
  for (const s of statistics) unitChanges[s.sample.name] = await unitChangesAfter(archive, s.sample.entries.frame);
  const strataDrawn: Record<string, { name: string; n: number }[]> = {};
  for (const s of statistics) {
    const m = s.sample.entries.manifest;
    if (s.sample.method !== 'stratified' || m < 0) continue;
    const [entry] = await archive.ledger.read(m, m + 1);
    const strata = entry === undefined ? undefined : actionFieldsOf(entry.entry, 'sample.manifest').strata;
    if (!Array.isArray(strata)) continue;
    strataDrawn[s.sample.name] = strata.flatMap((x) =>
      typeof x === 'object' && x !== null && !Array.isArray(x) && typeof x.name === 'string' && typeof x.n === 'number'
        ? [{ name: x.name, n: x.n }]
        : [],
    );
  }
  return {
    archive: { id: archive.manifest.id, origin: archive.manifest.origin },
    checkpoint: {
      size,
      root,
      note,
      signed: await isSignedCheckpoint(
        { ledger: archive.ledger, verifierKey: archive.verifierKey, origin: archive.manifest.origin },
        size,
      ),
      lastEntryTime: time,
    },
    deliveries,
    itemCount: items.length,
    duplicates,
    authenticity: {
      disclaimer: summary.disclaimer,
      cameras: summary.cameras,
      perCameraPerDay: summary.perCameraPerDay,
      flagged,
    },
    clusters: similarity.clusters.map((k) => ({
      id: k.id,
      objects: k.objects.length,
      items: k.items.length,
      max_distance: k.max_distance,
    })),
    greyStep: {
      ran: similarity.grey.ran,
      needing: similarity.grey.needing,
      limit: similarity.grey.limit,
      example: similarity.grey.objects[0] ?? null,
    },
    subjects: await catalogueCounts(archive),
    verify: ports.verify,
    statistics,
    unitChanges,
    strataDrawn,
    // The findings' definitions are those of the plans' own codebook (a plan drawn under v1 keeps
    // v1 after v2 became the default); the default only when no plan is reported, or its codebook
    // is not one Custody ships.
    codebook:
      DEFAULT_CODEBOOKS.find((c) => statistics.some((s) => s.codebook.digest === codebookDigest(c))) ?? DEFAULT_CODEBOOK,
    images: ports.thumbnail === null ? 'none' : ports.unblurred === true ? 'unblurred' : 'blurred',
    exhibits: await gatherExhibits(archive, exhibitIds, ports.thumbnail, label),
  };
}

/** Item id → file name and linked subject (number as read and normalised, unit), from the index at the checkpoint. */
async function fileLabels(archive: ReportSnapshot): Promise<(item: string) => FileLabel> {
  const labels = await CatalogueLabels.load(archive);
  const raw = new Map((await archive.index.listSubjects()).map((s) => [s.id, s.number_raw]));
  return (item) => {
    const l = labels.item(item);
    if (l === null) return { item, name: item, subject: null };
    const subject: SubjectLabel | null =
      l.subject === null
        ? null
        : { id: l.subject, numberRaw: raw.get(l.subject) ?? null, number: l.number, unit: l.unit };
    return { item, name: l.file, subject };
  };
}

async function gatherExhibits(
  archive: ReportSnapshot,
  ids: readonly string[],
  thumbnail: GatherPorts['thumbnail'],
  label: (item: string) => FileLabel,
): Promise<ReportInput['exhibits']> {
  const out = [];
  for (const id of ids) {
    const item = await archive.index.getItem(id.toUpperCase());
    if (item === undefined) {
      throw new ReportError(
        'REPORT_UNKNOWN_EXHIBIT',
        `no item ${id} in this archive at tree size ${archive.treeSize}`,
        { details: hint({ field: 'exhibits' }) },
      );
    }
    const thumb = thumbnail === null ? null : await thumbnail(item.sha256);
    out.push({
      item: item.id,
      name: item.name,
      sha256: item.sha256,
      seq: item.seq,
      proof: archive.ledger.inclusionProof(item.seq, archive.treeSize).map(toHex),
      thumbnail: thumb,
      ...(thumbnail !== null && thumb === null ? { thumbnailWithheld: 'the object is withdrawn' } : {}),
      subject: label(item.id).subject,
    });
  }
  return out;
}

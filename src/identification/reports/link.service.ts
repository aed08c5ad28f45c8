// Linking reports across organisations (issue 15, "Deduplicating reports" and "Review"): opens
// every report the caller may see, maps it to the linkage's record, runs Fellegi–Sunter
// (linkage/), and shows the proposed pairs and clusters with the reviewers' decisions. Linkage only
// proposes: reports become one missing person only through `same` decisions, each a ledger entry
// that holds the two report ids and the decision in clear, and the reason sealed under both
// reports' keys (erasing either report erases it); entries written before hold it in clear.
import { canonicalBytes, hint, type JsonValue } from '../../core/index.js';
import type { MissingLinkReviewsTable, MissingReportsTable } from '../../db/index.js';
import { IdentificationError } from '../errors.js';
import { LINKAGE_DEFAULTS, linkRecords, type BlockingSummary, type LinkRecord, type LinkageOptions, type LinkageResult, type LinkedPair } from '../linkage/index.js';
import type { MissingReportsPorts } from './ports.js';
import type { ReportContent } from './report-content.js';
import { openForViewer, withDataKey } from './reports.service.js';
import { openReport, parseSealed, sealedDigest, sealReport, type SealedReport } from './report-seal.js';

export type LinkDecision = 'same' | 'different';

/** What linking needs beyond opening reports: the reviewers' decisions. */
export interface LinkPorts extends MissingReportsPorts {
  listLinkReviews(): Promise<MissingLinkReviewsTable[]>;
  /**
   * The linkage itself, when the composition root gives one (app.ts: linkRecordsFor, on worker
   * threads for a large input, the same result); linkRecords on this thread otherwise.
   */
  link?(records: readonly LinkRecord[], options: LinkageOptions): Promise<LinkageResult>;
}

export interface LinkReview {
  decision: LinkDecision;
  /** Null when the reason is sealed and cannot be opened (a report erased, a key missing). */
  reason: string | null;
  seq: number;
  actor: string;
  time: string;
}

export interface ReviewedPair extends LinkedPair {
  org_a: string;
  org_b: string;
  /** The latest decision on this pair, or null when no one has reviewed it. */
  review: LinkReview | null;
}

export interface LinkRun {
  notice: string;
  threshold: number;
  /** Reports compared. */
  reports: number;
  /** Reports left out, and why (a code): erased, outside the consent scope, unreadable. */
  excluded: { id: string; reason: string }[];
  pairs: ReviewedPair[];
  /** Groups of reports that may be one person, at the threshold: proposals, never merges. */
  clusters: string[][];
  /** Groups of reports joined by `same` decisions: the missing persons after review. */
  persons: string[][];
  blocking: BlockingSummary | null;
  model: { lambda: number; iterations: number; converged: boolean } | null;
}

export const LINK_NOTICE =
  'These links are proposals for review, computed from the reports alone; no report is merged. ' +
  'Reports become one missing person only when a reviewer records that they are the same person.';

/** A report's sealed content as the linkage compares it. Empty fields are left out. */
export function toLinkRecord(id: string, org: string, c: ReportContent): LinkRecord {
  const t = (s: string | null): string | undefined => (s === null || s.trim() === '' ? undefined : s);
  const year = c.birth === null ? undefined : Number(c.birth.slice(0, 4));
  return {
    id,
    org,
    ...(t(c.name_ar) === undefined ? {} : { name_ar: c.name_ar as string }),
    ...(t(c.name_latin) === undefined ? {} : { name_latin: c.name_latin as string }),
    ...(t(c.father_name) === undefined ? {} : { father: c.father_name as string }),
    ...(t(c.grandfather_name) === undefined ? {} : { grandfather: c.grandfather_name as string }),
    ...(t(c.family_name) === undefined ? {} : { family: c.family_name as string }),
    ...(t(c.mother_name) === undefined ? {} : { mother: c.mother_name as string }),
    ...(c.sex === 'male' || c.sex === 'female' ? { sex: c.sex } : {}),
    ...(year === undefined || !Number.isInteger(year) ? {} : { birth_year: year }),
    ...(t(c.origin) === undefined ? {} : { origin: c.origin as string }),
    ...(t(c.event_date) === undefined ? {} : { arrest_date: c.event_date as string }),
    ...(t(c.event_place) === undefined ? {} : { arrest_place: c.event_place as string }),
    // A unit the registry resolved compares by its id; otherwise as the family wrote it.
    ...(c.unit === null ? {} : { unit: c.unit.id ?? c.unit.as_reported.trim().toLowerCase() }),
  };
}

const pairKey = (a: string, b: string): string => (a < b ? `${a}\n${b}` : `${b}\n${a}`);

export const ACTION_LINK_REVIEW = 'missing.link-review';

/**
 * Seals a link review's reason under both reports' keys, nested: under A's (the lower id), bound
 * to B, then that sealed object under B's, bound to A. Opening needs both keys, so destroying
 * either (erasing either report) erases the reason.
 */
export async function sealLinkReason(ports: MissingReportsPorts, a: MissingReportsTable, b: MissingReportsTable, reason: string): Promise<{ sealed: SealedReport; digest: string }> {
  const inner = await withDataKey(ports, a, (k) => sealReport(k, a.id, a.org, canonicalBytes({ reason }), [ACTION_LINK_REVIEW, b.id]));
  return withDataKey(ports, b, (k) => sealReport(k, b.id, b.org, canonicalBytes(inner.sealed), [ACTION_LINK_REVIEW, a.id]));
}

/** Opens a sealed link reason (the index row is checked against its digest first). */
export async function openLinkReason(ports: MissingReportsPorts, a: MissingReportsTable, b: MissingReportsTable, sealedJson: string, digest: string): Promise<string> {
  const outer = parseSealed(sealedJson);
  if (sealedDigest(outer) !== digest)
    throw new IdentificationError('MISSING_REPORT_KEY_INVALID', 'the sealed reason of a link review in the index does not match its digest', { details: hint({ remedy: ['verify'] }) });
  const inner = parseSealed((await withDataKey(ports, b, (k) => openReport(k, b.id, b.org, outer, [ACTION_LINK_REVIEW, a.id]))).toString('utf8'));
  const note = JSON.parse((await withDataKey(ports, a, (k) => openReport(k, a.id, a.org, inner, [ACTION_LINK_REVIEW, b.id]))).toString('utf8')) as { reason?: JsonValue };
  return typeof note.reason === 'string' ? note.reason : '';
}

/** A review's reason: in clear (older entries) or opened; null when it cannot be opened. */
async function reasonOf(ports: MissingReportsPorts, r: MissingLinkReviewsTable, rows: ReadonlyMap<string, MissingReportsTable>): Promise<string | null> {
  if (r.sealed_json === null || r.digest === null) return r.reason;
  const [a, b] = [rows.get(r.report_a), rows.get(r.report_b)];
  if (a === undefined || b === undefined) return null;
  try {
    return await openLinkReason(ports, a, b, r.sealed_json, r.digest);
  } catch (e) {
    if (e instanceof IdentificationError) return null;
    throw e;
  }
}

/**
 * The latest decision on each pair of visible reports (the ledger's order: a later decision
 * replaces an earlier one), the reasons opened.
 */
async function latestReviews(ports: MissingReportsPorts, rows: readonly MissingLinkReviewsTable[], visible: ReadonlyMap<string, MissingReportsTable>): Promise<Map<string, LinkReview>> {
  const latest = new Map<string, MissingLinkReviewsTable>();
  for (const r of [...rows].sort((x, y) => Number(x.seq) - Number(y.seq))) latest.set(pairKey(r.report_a, r.report_b), r);
  const out = new Map<string, LinkReview>();
  for (const [key, r] of latest) {
    if (!visible.has(r.report_a) || !visible.has(r.report_b)) continue;
    out.set(key, { decision: r.decision, reason: await reasonOf(ports, r, visible), seq: Number(r.seq), actor: r.actor, time: r.time });
  }
  return out;
}

/** Groups of the given reports joined by `same` decisions (groups of two or more). */
function personsOf(ids: ReadonlySet<string>, reviews: ReadonlyMap<string, LinkReview>): string[][] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r) as string;
    return r;
  };
  for (const [key, review] of reviews) {
    const [a = '', b = ''] = key.split('\n');
    if (review.decision !== 'same' || !ids.has(a) || !ids.has(b)) continue;
    for (const x of [a, b]) if (!parent.has(x)) parent.set(x, x);
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const groups = new Map<string, string[]>();
  for (const id of parent.keys()) groups.set(find(id), [...(groups.get(find(id)) ?? []), id]);
  return [...groups.values()].filter((g) => g.length > 1).map((g) => g.sort()).sort((x, y) => ((x[0] ?? '') < (y[0] ?? '') ? -1 : 1));
}

/** Opens every report the caller may see; the others are listed with the code of the reason. */
async function openAll(ports: MissingReportsPorts): Promise<{ rows: { row: MissingReportsTable; content: ReportContent }[]; excluded: { id: string; reason: string }[] }> {
  const rows: { row: MissingReportsTable; content: ReportContent }[] = [];
  const excluded: { id: string; reason: string }[] = [];
  for (const row of await ports.listReports()) {
    if (row.erased_seq !== null) {
      excluded.push({ id: row.id, reason: 'MISSING_REPORT_ERASED' });
      continue;
    }
    try {
      rows.push({ row, content: await openForViewer(ports, row) });
    } catch (e) {
      if (!(e instanceof IdentificationError)) throw e;
      excluded.push({ id: row.id, reason: e.code });
    }
  }
  return { rows, excluded };
}

/**
 * Runs the linkage on every report the caller may see and returns the candidate pairs (with the
 * fields that agreed and the reviewers' decisions), the proposed clusters and the reviewed persons.
 * Reports outside the caller's consent scope (when the caller's organisation is known) are left out.
 */
export async function linkReports(ports: LinkPorts, opts: { threshold?: number }): Promise<LinkRun> {
  const threshold = opts.threshold ?? LINKAGE_DEFAULTS.threshold;
  if (!(threshold > 0 && threshold < 1))
    throw new IdentificationError('MISSING_LINK_INVALID', `the threshold is a probability strictly between 0 and 1, got ${threshold}`, { details: { threshold } });
  const { rows, excluded } = await openAll(ports);
  const reviews = await latestReviews(ports, await ports.listLinkReviews(), new Map(rows.map((r) => [r.row.id, r.row])));
  const ids = new Set(rows.map((r) => r.row.id));
  const orgOf = new Map(rows.map((r) => [r.row.id, r.row.org]));
  const base = { notice: LINK_NOTICE, threshold, reports: rows.length, excluded, persons: personsOf(ids, reviews) };
  if (rows.length < 2) return { ...base, pairs: [], clusters: [], blocking: null, model: null };
  const records = rows.map((r) => toLinkRecord(r.row.id, r.row.org, r.content));
  const result = ports.link === undefined ? linkRecords(records, { threshold }) : await ports.link(records, { threshold });
  return {
    ...base,
    pairs: result.pairs.map((p) => ({ ...p, org_a: orgOf.get(p.a) ?? '', org_b: orgOf.get(p.b) ?? '', review: reviews.get(pairKey(p.a, p.b)) ?? null })),
    clusters: result.clusters.map((c) => [...c]),
    blocking: result.blocking,
    model: { lambda: result.model.lambda, iterations: result.model.iterations, converged: result.model.converged },
  };
}

/**
 * Records a reviewer's decision on a proposed link between two reports: one ledger entry holding
 * the two report ids (in order), the decision and the reason; nothing the family reported. Both
 * reports must exist, be readable and be within the caller's consent scope.
 */
export async function reviewLink(
  ports: LinkPorts,
  a: string,
  b: string,
  decision: LinkDecision,
  reason: string,
): Promise<{ reports: [string, string]; decision: LinkDecision; seq: number }> {
  const why = reason.trim();
  if (why === '') throw new IdentificationError('MISSING_LINK_INVALID', 'say why: the reason is recorded', { details: hint({ field: 'reason' }) });
  if (decision !== 'same' && decision !== 'different') throw new IdentificationError('MISSING_LINK_INVALID', `a decision is same or different, got ${String(decision)}`);
  if (a === b) throw new IdentificationError('MISSING_LINK_INVALID', `a report cannot be linked with itself (${a})`, { details: { reports: [a, b] } });
  const found: MissingReportsTable[] = [];
  for (const id of [a, b]) {
    const row = await ports.getReport(id);
    if (row === undefined)
      throw new IdentificationError('MISSING_LINK_UNKNOWN_REPORT', `no report ${id}: nothing was recorded`, { details: { report: id } });
    // Refuses an erased report, an unreadable one, and one outside the caller's consent scope.
    await openForViewer(ports, row);
    found.push(row);
  }
  const [lo, hi] = (a < b ? found : [...found].reverse()) as [MissingReportsTable, MissingReportsTable];
  const reports: [string, string] = [lo.id, hi.id];
  const { sealed, digest } = await sealLinkReason(ports, lo, hi, why);
  const [seq = -1] = await ports.commit([{ action: ACTION_LINK_REVIEW, reports, decision, sealed: { ...sealed }, digest }]);
  return { reports, decision, seq };
}

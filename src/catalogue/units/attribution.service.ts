// Which subjects changed unit after a point in the ledger (a sample's frame): read from the
// ledger itself, not the index. A stratified estimate keeps the strata as drawn; by-unit
// breakdowns follow the current attribution; this list says where the two differ and why.
import type { LedgerView } from '../ports.js';
import type { JsonValue } from '../../core/index.js';
import { actionFieldsOf, type LedgerEntry } from '../../ledger/index.js';
import { CatalogueLabels, type LabelsPorts, type UnitName } from '../labels.service.js';

export interface UnitChange {
  subject: string;
  number: string | null;
  /** The unit when the frame was fixed (null: none; undefined in older entries: not recorded). */
  from: UnitName | null;
  to: UnitName | null;
  /** The entries that changed it, with their reasons. */
  entries: { seq: number; reason: string }[];
}

/** What `custody stats --json` (and an export's statistics) say about attribution: `unit_attribution`. */
export interface UnitAttribution {
  breakdowns: string;
  strata: string | null;
  changed_after_frame: UnitChange[];
}

export function describeAttribution(
  treeSize: number,
  sample: { stratify: string | null; frameSeq: number },
  changes: UnitChange[],
): UnitAttribution {
  return {
    breakdowns: `by unit: current attribution at tree size ${treeSize}`,
    strata:
      sample.stratify === null
        ? null
        : `strata as drawn when the frame was fixed (entry ${sample.frameSeq})`,
    changed_after_frame: changes,
  };
}

export async function unitChangesAfter(
  archive: LedgerView & LabelsPorts,
  afterSeq: number,
): Promise<UnitChange[]> {
  const entries: LedgerEntry[] = [];
  const size = archive.treeSize;
  for (let a = afterSeq + 1; a < size; a += 1000) {
    for (const { entry } of await archive.ledger.read(a, Math.min(size, a + 1000)))
      if (entry.type === 'cataloguing' && entry.details.action === 'subject.update')
        entries.push(entry);
  }
  return unitChangesFrom(entries, afterSeq, await CatalogueLabels.load(archive));
}

/**
 * The subjects whose unit the `subject.update` entries after `afterSeq` changed (pure: the
 * verifier of an export runs it on the bag's ledger). `labels` names subjects and units.
 */
export function unitChangesFrom(
  entries: Iterable<LedgerEntry>,
  afterSeq: number,
  labels: {
    subject(id: string): { number: string | null };
    unit(id: string | null): UnitName | null;
  },
): UnitChange[] {
  const first = new Map<string, string | null>();
  const last = new Map<string, string | null>();
  const seqs = new Map<string, { seq: number; reason: string }[]>();
  for (const entry of entries) {
    const d = actionFieldsOf(entry, 'subject.update');
    if (entry.seq <= afterSeq || d.action !== 'subject.update') continue;
    const subject = obj(d.subject);
    if (!('unit_id' in subject) || typeof subject.id !== 'string') continue;
    const id = subject.id;
    const to = typeof subject.unit_id === 'string' ? subject.unit_id : null;
    // Entries before previous_unit_id was recorded count as a change from an unknown unit.
    const from =
      typeof d.previous_unit_id === 'string'
        ? d.previous_unit_id
        : d.previous_unit_id === null
          ? null
          : '?';
    if (!first.has(id)) first.set(id, from);
    last.set(id, to);
    seqs.set(id, [
      ...(seqs.get(id) ?? []),
      { seq: entry.seq, reason: typeof d.reason === 'string' ? d.reason : '' },
    ]);
  }
  const out: UnitChange[] = [];
  for (const [id, to] of last) {
    const from = first.get(id) ?? null;
    if (from === to) continue;
    out.push({
      subject: id,
      number: labels.subject(id).number,
      from: from === '?' ? null : labels.unit(from),
      to: labels.unit(to),
      entries: seqs.get(id) ?? [],
    });
  }
  return out.sort((x, y) => (x.subject < y.subject ? -1 : 1));
}

function obj(v: JsonValue | undefined): { [k: string]: JsonValue } {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : {};
}

// `report --bag DIR`: the report is drawn at the bag's checkpoint, and every figure the bag holds
// is footnoted with its place in the bag too, so that the defence, holding only the bag, can
// reproduce it (`custody verify-export BAG --explain …`, `python3 verify_bag.py --explain …`).
// Pure: the bag is read by bag.adapter.ts; nothing read from it is trusted until checked here.
import {
  parseCheckpoint,
  parseVerifierKey,
  verifyCheckpoint,
  CustodyError,
  hint,
} from '../../core/index.js';
import type { StatisticsReport } from '../../examination/statistics/index.js';
import type { BagLocator } from './cite.js';
import { ReportError } from './errors.js';
import { bagPointer, resolvePointer, type Footnote } from './footnotes.js';

export interface ReportBag {
  /** As given on the command line; printed in the footnotes' bag commands. */
  readonly dir: string;
  /** custody/checkpoint.txt: the signed note the bag is tied to. */
  readonly note: string;
  /** data/tables/statistics-<id>.json, parsed, by bag path. */
  readonly statistics: ReadonlyMap<string, unknown>;
  /** Item ids of data/tables/items.json, in its order. */
  readonly items: ReadonlySet<string>;
}

/** What the archive says about a tree size, for checking a bag's checkpoint against it. */
export interface ArchiveCheckpoints {
  readonly origin: string;
  readonly verifierKey: string;
  /** The ledger's size now. */
  readonly ledgerSize: number;
  /** RFC 9162 root of the archive's own ledger at `size` (size <= ledgerSize). */
  rootAt(size: number): Buffer;
}

/**
 * The bag's checkpoint size, once it is shown to be a checkpoint of this archive's ledger: same
 * origin, signed by the archive key, and a root equal to the ledger's own root at that size.
 * Anything else is REPORT_BAG_MISMATCH (or REPORT_BAG_INVALID when it is no signed note at all).
 */
export function bagCheckpointSize(bag: ReportBag, archive: ArchiveCheckpoints): number {
  let body;
  try {
    body = parseCheckpoint(bag.note.slice(0, bag.note.indexOf('\n\n') + 1));
  } catch (e) {
    throw new ReportError(
      'REPORT_BAG_INVALID',
      'custody/checkpoint.txt is not a checkpoint note',
      { cause: e, details: hint({ field: 'bag', value: bag.dir }) },
    );
  }
  const mismatch = (why: string) =>
    new ReportError(
      'REPORT_BAG_MISMATCH',
      `its checkpoint (tree size ${body.size}) is not one of this archive's: ${why}`,
      { details: hint({ field: 'bag', value: bag.dir }) },
    );
  if (body.origin !== archive.origin)
    throw mismatch(`origin ${body.origin}, the archive's is ${archive.origin}`);
  try {
    verifyCheckpoint(bag.note, parseVerifierKey(archive.verifierKey));
  } catch (e) {
    if (e instanceof CustodyError)
      throw mismatch('its signature does not verify with the archive key');
    throw e;
  }
  if (body.size < 1 || body.size > archive.ledgerSize)
    throw mismatch(`the archive's ledger has ${archive.ledgerSize} entries`);
  if (!body.root.equals(archive.rootAt(body.size)))
    throw mismatch(`its root differs from the ledger's root at tree size ${body.size}`);
  return body.size;
}

/** The bag file holding a sampling plan's statistics, when the bag carries it. */
export function statisticsFile(bag: ReportBag | null, s: StatisticsReport): string | null {
  const file = `data/tables/statistics-${s.sample.id}.json`;
  return bag !== null && bag.statistics.has(file) ? file : null;
}

/**
 * Where each cited value sits in the bag: the statistics of each plan the bag carries (the same
 * JSON as `custody stats NAME --at N --json`, pointer for pointer), the checkpoint's size and
 * root (custody/export.json), and the inclusion proof of each exhibit the bag exports.
 */
export function bagLocator(
  bag: ReportBag,
  size: number,
  statistics: readonly StatisticsReport[],
  exhibits: readonly { readonly item: string; readonly seq: number }[],
): BagLocator {
  const files = new Map<string, string>();
  const key = (command: readonly string[]) => JSON.stringify(command);
  for (const s of statistics) {
    const file = statisticsFile(bag, s);
    if (file !== null)
      files.set(key(['custody', 'stats', s.sample.name, '--at', String(size), '--json']), file);
  }
  const proofs = new Map<string, string>();
  for (const e of exhibits) {
    if (bag.items.has(e.item))
      proofs.set(
        key(['custody', 'prove', 'inclusion', String(e.seq), '--size', String(size), '--json']),
        `custody/proofs/${e.item}.json`,
      );
  }
  const checkpoint = key(['custody', 'checkpoint', '--at', String(size), '--json']);
  return (command, ptr) => {
    const k = key(command);
    const file = files.get(k);
    if (file !== undefined) return bagPointer(file, ptr);
    const proof = proofs.get(k);
    if (proof !== undefined && ptr === '/proof') return `${proof}#/proof`;
    if (k === checkpoint && ptr === '/size') return 'custody/export.json#/tree_size';
    if (k === checkpoint && ptr === '/root') return 'custody/export.json#/root';
    return null;
  };
}

/**
 * Every footnote that names a cell of a statistics table in the bag must find there the value the
 * report prints (numbers within 1e-9 relative, contract §2): a bag whose tables were edited is
 * refused (REPORT_BAG_MISMATCH) instead of being cited as if it agreed.
 */
export function checkBagCitations(footnotes: readonly Footnote[], bag: ReportBag): void {
  for (const f of footnotes) {
    if (f.bag === undefined) continue;
    const [file = '', ptr = ''] = f.bag.split('#');
    const doc = bag.statistics.get(file);
    if (doc === undefined) continue; // custody/… files: checked by verify-export, not here
    let inBag: unknown;
    try {
      inBag = resolvePointer(doc, ptr);
    } catch {
      inBag = undefined;
    }
    const expected = f.pointer.endsWith('/length') && Array.isArray(inBag) ? inBag.length : inBag;
    const at = f.command[f.command.indexOf('--at') + 1] ?? '?';
    if (!sameValue(expected, f.value))
      throw new ReportError(
        'REPORT_BAG_MISMATCH',
        `${f.bag} holds ${JSON.stringify(expected) ?? 'nothing'}, the archive gives ${JSON.stringify(f.value)} at checkpoint ${at} (footnote ${f.n})`,
        { details: { bag: f.bag, footnote: f.n, ...hint({ field: 'bag', value: bag.dir }) } },
      );
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (
    typeof a === 'object' &&
    a !== null &&
    typeof b === 'object' &&
    b !== null &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  ) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return (
      JSON.stringify(ka) === JSON.stringify(kb) &&
      ka.every((k) =>
        sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
      )
    );
  }
  return a === b;
}

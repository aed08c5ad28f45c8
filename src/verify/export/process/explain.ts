/**
 * `custody verify-export BAG --explain '<bag path>#<JSON pointer>'`: one figure of the bag, the
 * value the ledger's entries give for it, whether they agree, and the entries it rests on, in
 * plain words (ISSUE11-CONTRACT §2). Pure: it reads the report of verifyExport.
 */
import type { ExportReport } from '../verify-export.js';
import { compareJson, parsePointer, resolvePointer } from './compare.js';

export interface Explanation {
  pointer: string;
  bag: unknown;
  derived: unknown;
  agrees: boolean;
  /** Every entry it rests on is proven against the signed checkpoint. */
  proven: boolean;
  entries: { seq: number; type: string; action: string | null; proven: boolean }[];
  explanation: string;
}

/** The explanation, or why the pointer names no figure of the bag (a usage error). */
export function explainPointer(report: ExportReport, target: string): Explanation | string {
  const hash = target.indexOf('#');
  if (hash < 0) return "give '<bag path>#<JSON pointer>', e.g. 'data/tables/statistics-<plan>.json#/findings/0/proportion'";
  const path = target.slice(0, hash);
  const pointer = target.slice(hash + 1);
  const doc = report.process?.documents.get(path);
  if (doc === undefined) {
    const known = [...(report.process?.documents.keys() ?? [])].join(', ');
    return `${path} is not a table the verifier derives from the ledger (these are: ${known || 'none'})`;
  }
  if (parsePointer(pointer) === undefined) return `${pointer} is not a JSON pointer (RFC 6901: empty, or /token/token…)`;
  const inBag = resolvePointer(doc.bag, pointer);
  if (!inBag.found) return `${path} has nothing at ${pointer}`;
  const inLedger = resolvePointer(doc.derived, pointer);
  const derived = inLedger.found ? inLedger.value : undefined;
  const agrees = inLedger.found && compareJson(inBag.value, derived, pointer).length === 0;
  const checkpointOk = report.steps.find((s) => s.step === 3)?.ok === true;
  const proven = report.process?.proven ?? new Set<number>();
  const entries = doc.entries(pointer).map((seq) => {
    const e = report.process?.entries.get(seq);
    const action = e?.details.action;
    return { seq, type: e?.type ?? '?', action: typeof action === 'string' ? action : null, proven: checkpointOk && proven.has(seq) };
  });
  const allProven = entries.length > 0 && entries.every((e) => e.proven);
  const words = [
    agrees
      ? `The value in the bag is the value re-derived from the ledger entries below (numbers within 1e-9 relative; interval bounds found by root-finding within 1e-6).`
      : inLedger.found
        ? 'The value in the bag is NOT the value the ledger entries give: the table was changed after it was derived, or the entries were.'
        : 'The ledger entries give no such value: the bag has a figure the ledger does not support.',
    allProven
      ? 'Every one of those entries is proven against the signed checkpoint, so the figure rests on the signed ledger.'
      : 'Not every one of those entries is proven against the signed checkpoint (see check 6), so the figure is not shown to rest on the signed ledger.',
  ];
  return { pointer: target, bag: inBag.value, derived, agrees, proven: allProven, entries, explanation: words.join(' ') };
}

// Reading typed fields out of a ledger entry's details, for the projections. Untrusted input:
// the ledger file may have been edited, so every field is checked and a bad one is named.
import type { JsonValue } from '../core/index.js';
import type { LedgerEntry } from './entry.js';
import { LedgerError } from './errors.js';

export function field(d: Record<string, JsonValue>, k: string, e: LedgerEntry): JsonValue {
  const v = d[k];
  if (v === undefined) throw bad(e, k);
  return v;
}

export function str(d: Record<string, JsonValue>, k: string, e: LedgerEntry): string {
  const v = field(d, k, e);
  if (typeof v !== 'string') throw bad(e, k);
  return v;
}

export function strOrNull(d: Record<string, JsonValue>, k: string, e: LedgerEntry): string | null {
  const v = d[k] ?? null;
  if (v !== null && typeof v !== 'string') throw bad(e, k);
  return v;
}

export function int(d: Record<string, JsonValue>, k: string, e: LedgerEntry): number {
  const v = field(d, k, e);
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw bad(e, k);
  return v;
}

export function only(list: string[], k: string, e: LedgerEntry): string {
  if (list.length !== 1 || list[0] === undefined) throw bad(e, k);
  return list[0];
}

export function manifestDigest(d: Record<string, JsonValue>): string | null {
  const m = d.manifest;
  if (m === null || m === undefined || typeof m !== 'object' || Array.isArray(m)) return null;
  return typeof m.sha256 === 'string' ? m.sha256 : null;
}

export function bad(e: LedgerEntry, k: string): LedgerError {
  return new LedgerError(
    'LEDGER_ENTRY_MALFORMED',
    `${e.type} entry ${e.seq} lacks a valid details.${k}`,
  );
}


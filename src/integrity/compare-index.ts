import { canonicalize } from '../core/index.js';
import type { IndexTable, Row } from '../db/index.js';
import type { Finding } from './findings.js';

/**
 * Compares the index database with the index replayed from the ledger, both ways: a row the
 * ledger implies but the database lacks, a row the database has that no entry explains, and
 * a row whose values differ. Values are compared in canonical form (numbers as numbers).
 */
export function compareIndexTable(
  table: IndexTable,
  pk: string,
  expected: ReadonlyMap<string, Row>,
  actual: readonly Row[],
  limit = 50,
  opts: { missing?: boolean } = {},
): { findings: Finding[]; compared: number } {
  const findings: Finding[] = [];
  let differences = 0;
  const seen = new Set<string>();
  const note = (f: Finding): void => {
    differences++;
    if (findings.length < limit) findings.push(f);
  };
  for (const row of actual) {
    const key = String(row[pk]);
    seen.add(key);
    const want = expected.get(key);
    if (want === undefined) {
      note({ code: 'DB_ROW_EXTRA', severity: 'error', subject: `${table}/${key}`, message: `the database has ${table} row ${key}, which no ledger entry explains` });
      continue;
    }
    const a = canonicalRow(row);
    const b = canonicalRow(want);
    if (a !== b) {
      note({ code: 'DB_ROW_CHANGED', severity: 'error', subject: `${table}/${key}`, message: `${table} row ${key} differs from the ledger: ${diffColumns(row, want).map((c) => `${c} (index ${shown(row[c])}, ledger ${shown(want[c])})`).join(', ')}` });
    }
  }
  // `missing: false`: rows the index lacks are not listed (rebuild restores them; nothing is lost).
  for (const key of opts.missing === false ? [] : expected.keys()) {
    if (!seen.has(key)) {
      note({ code: 'DB_ROW_MISSING', severity: 'error', subject: `${table}/${key}`, message: `the ledger implies ${table} row ${key}, which the database lacks` });
    }
  }
  if (differences > findings.length) {
    findings.push({ code: 'DB_ROW_CHANGED', severity: 'error', subject: table, message: `${differences - findings.length} more differences in ${table} not listed` });
  }
  return { findings, compared: actual.length };
}

function normalise(v: unknown): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' || typeof v === 'string') return v;
  return JSON.stringify(v);
}

function canonicalRow(row: Row): string {
  const out: Record<string, string | number | null> = {};
  for (const [k, v] of Object.entries(row)) out[k] = normalise(v);
  return canonicalize(out);
}

function shown(v: unknown): string {
  const s = JSON.stringify(normalise(v));
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}

function diffColumns(a: Row, b: Row): string[] {
  const cols = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...cols].filter((c) => normalise(a[c]) !== normalise(b[c])).sort();
}

import { toHex } from '../core/index.js';
import type { IndexProblem } from '../db/connection.adapter.js';
import { INDEX_TABLES, type IndexTable } from '../db/index.js';
import { compareIndexTable } from './compare-index.js';
import type { Finding } from './findings.js';
import { MemoryIndex, projectEntry } from '../ledger/index.js';
import type { Ledger } from '../ledger/ledger.service.js';
import type { ArchiveIndexRepository } from '../db/archive-index.repository.js';

/** What a rebuild reads and replaces: the whole ledger, the index (and what opening it found wrong). */
export interface RebuildPorts {
  readonly ledger: Pick<Ledger, 'read' | 'size' | 'rewriteLeafIndex'>;
  readonly index: Pick<ArchiveIndexRepository, 'ledgerSize' | 'dumpTable' | 'replaceAll'>;
  readonly indexProblem: IndexProblem | null;
}

export interface RebuildReport {
  entries: number;
  rows: Record<string, number>;
  /** What the index said before: the ledger size it reflected, and whether it was missing or damaged. */
  previous: { ledger_size: number | null; problem: IndexProblem | null };
  /**
   * Every row the rebuild dropped (DB_ROW_EXTRA: no ledger entry explains it) or replaced
   * (DB_ROW_CHANGED: its old values are listed), and an index that was ahead of the ledger
   * (DB_AHEAD_OF_LEDGER: the ledger lost entries). Never silent: they may be the last trace of an edit.
   */
  findings: Finding[];
}

/**
 * `custody rebuild`: the database is an index of the ledger, so it can be thrown away and made
 * again. Replays every entry through the same projection intake uses, compares the old rows with
 * the new ones (reporting what changes), then replaces all rows in one transaction.
 */
export async function rebuildIndex(archive: RebuildPorts, onProgress?: (stage: string, done: number, total?: number) => void): Promise<RebuildReport> {
  const index = new MemoryIndex();
  const total = archive.ledger.size;
  for (let from = 0; from < total; from += 5000) {
    for (const s of await archive.ledger.read(from, Math.min(total, from + 5000))) {
      index.apply(projectEntry(s.entry, toHex(s.leafHash)));
    }
    onProgress?.('replaying the ledger', Math.min(total, from + 5000), total);
  }
  const findings: Finding[] = [];
  let previousSize: number | null = null;
  if (archive.indexProblem === null) {
    previousSize = await archive.index.ledgerSize();
    if (previousSize > total) {
      findings.push({ code: 'DB_AHEAD_OF_LEDGER', severity: 'error', subject: 'index', message: `the index reflected ${previousSize} ledger entries but the ledger has ${total}: the ledger lost entries (rows they explained are listed below)` });
    }
    for (const table of Object.keys(INDEX_TABLES) as IndexTable[]) {
      findings.push(...compareIndexTable(table, INDEX_TABLES[table], index.table(table), await archive.index.dumpTable(table), 200, { missing: false }).findings);
    }
  } else {
    const p = archive.indexProblem;
    findings.push({ code: p.code, severity: 'warning', subject: 'index', message: p.setAside === null ? p.message : `${p.message}; the damaged file was moved to ${p.setAside}` });
  }
  onProgress?.('writing the index', 0);
  await archive.index.replaceAll(index.tables, total);
  // The leaf index too is made again from the entries (each re-hashed and checked).
  await archive.ledger.rewriteLeafIndex();
  const rows: Record<string, number> = {};
  for (const [t, m] of index.tables) rows[t] = m.size;
  return { entries: total, rows, previous: { ledger_size: previousSize, problem: archive.indexProblem }, findings };
}

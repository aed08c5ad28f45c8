import type { Archive } from '../app.js';
import { toHex } from '../core/sha256.js';
import { MemoryIndex, projectEntry } from './projection.js';

/**
 * `custody rebuild`: the database is an index of the ledger, so it can be thrown away and made
 * again. Replays every entry through the same projection intake uses, then replaces all rows
 * in one transaction.
 */
export async function rebuildIndex(archive: Archive, onProgress?: (stage: string, done: number, total?: number) => void): Promise<{ entries: number; rows: Record<string, number> }> {
  const index = new MemoryIndex();
  const total = archive.ledger.size;
  for (let from = 0; from < total; from += 5000) {
    for (const s of await archive.ledger.read(from, Math.min(total, from + 5000))) {
      index.apply(projectEntry(s.entry, toHex(s.leafHash)));
    }
    onProgress?.('replaying the ledger', Math.min(total, from + 5000), total);
  }
  onProgress?.('writing the index', 0);
  await archive.index.replaceAll(index.tables, total);
  const rows: Record<string, number> = {};
  for (const [t, m] of index.tables) rows[t] = m.size;
  return { entries: total, rows };
}

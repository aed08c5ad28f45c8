import type { Archive } from '../app.js';

/**
 * The first line of a browsing command's human output: what the rows stand on. The live index is
 * a convenience any file-level edit can change; `--at N` replays the ledger itself. (--json stays
 * as it was: machines read the same rows, and `verify` is how they check the index.)
 */
export async function indexSourceLine(archive: Archive, at: number | undefined): Promise<string> {
  if (at !== undefined) return `(from the ledger, replayed to tree size ${at})\n`;
  const indexed = await archive.index.ledgerSize();
  return `(from the live index, which reflects ${indexed} ledger entries: not signed; \`custody verify\` checks it against the ledger, \`--at N\` replays the ledger instead)\n`;
}

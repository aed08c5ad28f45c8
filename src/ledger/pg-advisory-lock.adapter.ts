import { LedgerError } from './errors.js';

/**
 * The database's half of "one writer at a time": with a PostgreSQL index, writers on several
 * machines sharing the archive folder also take a session-level advisory lock keyed on the
 * archive id, so that a lock file on a network filesystem is not the only guard.
 */
export async function acquirePgAdvisoryLock(
  url: string,
  archiveId: string,
  timeoutMs: number,
): Promise<{ release(): Promise<void> }> {
  const { default: pg } = await import('pg'); // only PostgreSQL archives load the driver
  const client = new pg.Client({ connectionString: url });
  // If the server ends this connection (a restart, an administrator), the advisory lock goes with
  // it; the writer's kernel lock on the ledger file still excludes other writers on this host.
  // Without a listener the 'error' would end the process.
  client.on('error', () => undefined);
  await client.connect();
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const r = await client.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_lock(hashtext($1)) AS ok',
        [`custody:${archiveId}`],
      );
      if (r.rows[0]?.ok === true) break;
      if (Date.now() >= deadline) {
        throw new LedgerError(
          'LEDGER_LOCKED',
          "another custody process holds the archive's PostgreSQL writer lock; try again when it has finished",
        );
      }
      await new Promise((res) => setTimeout(res, 200));
    }
  } catch (e) {
    await client.end().catch(() => undefined);
    throw e;
  }
  return {
    async release() {
      await client
        .query('SELECT pg_advisory_unlock(hashtext($1))', [`custody:${archiveId}`])
        .catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { ArchiveError } from './errors.js';

/** What `custody serve` writes beside the ledger's lock while it serves the archive. */
export interface ServedMarker {
  pid: number;
  host: string;
  port: number;
  started: string;
}

/**
 * The note that a server is the archive's one writer (`ledger/server.json`). It is informational,
 * like the lock holder note: the exclusion itself is the kernel lock the server holds. It lets a
 * CLI write fail at once, naming the server, instead of waiting for the lock. A note whose process
 * is gone (a killed server) is ignored; a note anyone could plant only makes writes refuse, which
 * removing the file undoes.
 */
export async function writeServedMarker(path: string, marker: ServedMarker): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, `${JSON.stringify(marker)}\n`, { mode: 0o644 });
  await rename(tmp, path);
}

export async function removeServedMarker(path: string, pid = process.pid): Promise<void> {
  const m = await readServedMarker(path);
  if (m !== null && m.pid !== pid) return; // another server's note
  await unlink(path).catch(() => undefined);
}

/** The marker of a live server, or null (none, unreadable, or its process is gone). */
export async function readServedMarker(path: string): Promise<ServedMarker | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  if (text.length > 4096) return null;
  let m: Partial<ServedMarker>;
  try {
    m = JSON.parse(text) as Partial<ServedMarker>;
  } catch {
    return null;
  }
  if (typeof m.pid !== 'number' || !Number.isSafeInteger(m.pid) || m.pid <= 0) return null;
  if (!alive(m.pid)) return null;
  return {
    pid: m.pid,
    host: typeof m.host === 'string' ? m.host : '?',
    port: typeof m.port === 'number' ? m.port : 0,
    started: typeof m.started === 'string' ? m.started : '?',
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Refuses at once when a live server serves the archive: it is the one writer. */
export async function assertNotServed(path: string, command: string): Promise<void> {
  const m = await readServedMarker(path);
  if (m === null) return;
  const where = `http://${m.host.includes(':') ? `[${m.host}]` : m.host}:${m.port}`;
  throw new ArchiveError(
    'ARCHIVE_SERVED',
    `this archive is served by the Custody server at ${where} (process ${m.pid}, since ${m.started}): it is the archive's one writer, so ${command} cannot run beside it; do this through the server, or stop it first`,
    { details: { server: where, pid: m.pid, started: m.started } },
  );
}

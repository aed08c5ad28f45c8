// Opening the report KEK for the missing-person services, and moving an archive made before it
// (version 1 key files, wrapped under a key derived from the archive's sealing key) onto it.
//
// - The KEK is made once, in write mode, when there is none: with the report passphrase, or
//   without any in an archive whose signing key has none either (a test or demo archive; its
//   keys folder protects nothing anyway). An encrypted archive given no report passphrase gets no
//   unencrypted KEK: MISSING_REPORT_KEK_LOCKED.
// - When it is made, every version 1 key file is unwrapped with the old derived key and rewrapped
//   under the KEK (version 2), each file replaced atomically: the writer who first opens the
//   archive with both passphrases moves it. A version 1 file restored later still opens in write
//   mode (ReportKeys.legacy). Not a ledger entry: key files are outside the ledger, and
//   `key rewrap` is not one either.
// - A KEK file that is gone while version 2 key files exist is not made again (that would orphan
//   them silently): MISSING_REPORT_KEK_MISSING, restore it from a backup.
import { hint } from '../../core/index.js';
import type { Kek } from '../../archive/index.js';
import { IdentificationError } from '../errors.js';
import { keyFileVersion, legacyReportKek, unwrapDataKey, wrapDataKey, type ReportKeys } from './report-seal.js';
import type { ReportKeyStore } from './ports.js';

export interface ReportKekPorts {
  /** Opens the KEK file with the report passphrase given (if any). */
  open(): Promise<{ state: 'open'; kek: Kek } | { state: 'locked' } | { state: 'absent' }>;
  /** Makes the KEK file; null when this process may not (read mode, or no report passphrase in an encrypted archive). */
  create: (() => Promise<Kek>) | null;
  /** The archive's sealing key (write mode), for version 1 key files; null otherwise. */
  sealingKey: Buffer | null;
  keys: ReportKeyStore & { list(): Promise<Set<string>> };
  warn?: (message: string) => void;
}

function locked(): IdentificationError {
  return new IdentificationError(
    'MISSING_REPORT_KEK_LOCKED',
    'family reports are sealed under the report key, which opens only with the report passphrase (CUSTODY_REPORT_PASSPHRASE); the archive passphrase alone does not open it',
    { details: hint({ remedy: ['give-report-passphrase'] }) },
  );
}

/** The report keys (KEK and, in write mode, the old derived key), or a refusal naming what is missing. */
export async function openReportKeys(ports: ReportKekPorts): Promise<ReportKeys> {
  const legacy = ports.sealingKey === null ? null : legacyReportKek(ports.sealingKey);
  const found = await ports.open();
  if (found.state === 'locked') throw locked();
  if (found.state === 'open') return { kek: found.kek, legacy };
  const files = await readKeyFiles(ports.keys);
  const orphan = files.find((f) => keyFileVersion(f.text)?.version === 2);
  if (orphan !== undefined)
    throw new IdentificationError(
      'MISSING_REPORT_KEK_MISSING',
      `the report key file keys/report-kek.key is missing, but report keys are wrapped under it (report ${orphan.id}): restore it from a backup of the keys folder`,
      { details: { report: orphan.id } },
    );
  if (ports.create === null) throw locked();
  const kek = await ports.create();
  const keys = { kek, legacy };
  if (legacy !== null) await migrate(ports, keys, files);
  return keys;
}

async function readKeyFiles(keys: ReportKekPorts['keys']): Promise<{ id: string; text: string }[]> {
  const out: { id: string; text: string }[] = [];
  for (const id of [...(await keys.list())].sort()) {
    const text = await keys.read(id);
    if (text !== null) out.push({ id, text });
  }
  return out;
}

/** Rewraps each version 1 key file under the new KEK; a file that does not open is left as it is (verify reports it). */
async function migrate(ports: ReportKekPorts, keys: ReportKeys, files: readonly { id: string; text: string }[]): Promise<void> {
  const out: { id: string; text: string }[] = [];
  for (const f of files) {
    if (keyFileVersion(f.text)?.version !== 1) continue;
    const { digest } = JSON.parse(f.text) as { digest: string };
    let dataKey: Buffer;
    try {
      dataKey = unwrapDataKey(keys, f.id, digest, f.text);
    } catch {
      continue;
    }
    try {
      out.push({ id: f.id, text: wrapDataKey(keys.kek, f.id, digest, dataKey) });
    } finally {
      dataKey.fill(0);
    }
  }
  if (out.length === 0) return;
  await ports.keys.writeAll(out);
  ports.warn?.(`custody: ${out.length} report key(s) rewrapped under the new report key (keys/report-kek.key)`);
}

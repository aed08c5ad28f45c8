// The report key-encryption key: a random key in keys/report-kek.key, encrypted under the report
// passphrase (CUSTODY_REPORT_PASSPHRASE), in the same envelope as the examination KEK
// (kek-file.adapter.ts). It wraps the data key of every missing-person report
// (identification/reports/report-seal.ts). Its passphrase is not the archive's key passphrase:
// it is held by those who may read family reports (the source custodian, the family liaison's
// organisation through the team server), so a writer who holds only the archive passphrase can
// record evidence but cannot unwrap a report.
import { join } from 'node:path';
import { ArchiveError } from './errors.js';
import { kekFileExists, openKekFile, rewrapKekFile, type Kek } from './kek-file.adapter.js';

export function reportKekPath(archiveDir: string): string {
  return join(archiveDir, 'keys', 'report-kek.key');
}

const LABEL = 'custody missing-person report key-encryption key v2';

/** What opening found: the KEK, a file that needs a passphrase not given, or no file. */
export type ReportKekState = { state: 'open'; kek: Kek } | { state: 'locked' } | { state: 'absent' };

export async function openReportKek(archiveDir: string, archiveId: string, passphrase: string | null): Promise<ReportKekState> {
  try {
    const kek = await openKekFile({ path: reportKekPath(archiveDir), archiveId, label: LABEL }, passphrase, false);
    return kek === null ? { state: 'absent' } : { state: 'open', kek };
  } catch (e) {
    if (e instanceof ArchiveError && e.code === 'KEY_PASSPHRASE_REQUIRED') return { state: 'locked' };
    throw e;
  }
}

/** Makes the report KEK (refused if one exists: `wx`). */
export async function createReportKek(archiveDir: string, archiveId: string, passphrase: string | null): Promise<Kek> {
  const kek = await openKekFile({ path: reportKekPath(archiveDir), archiveId, label: LABEL }, passphrase, true);
  if (kek === null) throw new Error('unreachable: the report KEK was just made');
  return kek;
}

export function reportKekExists(archiveDir: string): Promise<boolean> {
  return kekFileExists(reportKekPath(archiveDir));
}

/** `custody key rewrap --report`: the report KEK under a new report passphrase (false: none yet). */
export function rewrapReportKek(archiveDir: string, passphrase: string | null, newPassphrase: string): Promise<boolean> {
  return rewrapKekFile(reportKekPath(archiveDir), passphrase, newPassphrase);
}

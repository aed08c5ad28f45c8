// The archive's examination key-encryption key (KEK): a random key in keys/examination-kek.key
// under the archive's key passphrase (kek-file.adapter.ts). Each sampling plan's answer key is
// random and wrapped by this KEK (examination/blind/plan-key.ts), so whoever holds the signing key
// alone (a copy of checkpoint-signing.pem) cannot unseal answers, and the KEK opens only with the
// passphrase. Made on first use (the first assignment).
import { join } from 'node:path';
import { openKekFile, rewrapKekFile, type Kek } from './kek-file.adapter.js';

export type ExaminationKek = Kek;

export function examinationKekPath(archiveDir: string): string {
  return join(archiveDir, 'keys', 'examination-kek.key');
}

/**
 * The KEK, opened with the passphrase (null: an archive made without one keeps its KEK
 * unencrypted too, like its signing key). `create` makes it when absent (write mode only).
 */
export function openExaminationKek(archiveDir: string, archiveId: string, passphrase: string | null, create: boolean): Promise<ExaminationKek | null> {
  return openKekFile({ path: examinationKekPath(archiveDir), archiveId, label: 'custody examination key-encryption key v1' }, passphrase, create);
}

/** `key rewrap` with a new passphrase re-encrypts the KEK too (when there is one). */
export function rewrapExaminationKek(archiveDir: string, passphrase: string | null, newPassphrase: string): Promise<boolean> {
  return rewrapKekFile(examinationKekPath(archiveDir), passphrase, newPassphrase);
}

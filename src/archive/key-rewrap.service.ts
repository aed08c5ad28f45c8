import { LedgerLock } from '../ledger/ledger-lock.adapter.js';
import { SCRYPT_DEFAULTS, type ScryptParams } from './key-envelope.js';
import { rewrapExaminationKek } from './examination-kek.adapter.js';
import { reportKekExists, rewrapReportKek } from './report-kek.adapter.js';
import { archiveLayout } from './layout.js';
import { assertSigningKeyMatches } from './signing-key-record.adapter.js';
import { openSigningKeyFile, replaceSigningKey, signingKeyFileKdf, type SigningKeyFormat } from './signing-key.adapter.js';

export interface RewrapRequest {
  archiveDir: string;
  /** The passphrase that opens the key today (null for a key made without one). */
  passphrase: string | null;
  /** A new passphrase, or null to keep the current one. */
  newPassphrase: string | null;
  lockTimeoutMs: number;
}

export interface RewrapResult {
  rewrapped: boolean;
  from: SigningKeyFormat;
  to: SigningKeyFormat;
  kdf: ScryptParams | null;
  passphraseChanged: boolean;
  /** Why nothing was done, when nothing was. */
  note: string | null;
}

/**
 * `custody key rewrap`: re-encrypts the signing key in the current format (scrypt, AES-256-GCM),
 * under a new passphrase if one is given. Holds the writer lock; opens the key with today's
 * passphrase and checks it is the archive's key of record before touching the file; replaces the
 * file atomically. No backup is kept: the old file is exactly what the rewrap exists to remove (a
 * PBKDF2-2048 copy can be guessed offline far faster, and under a changed passphrase a backup
 * would keep the old passphrase working). The key itself, and so the verifier key and every
 * checkpoint, are unchanged.
 *
 * Not recorded in the ledger: no entry type fits (`creation` means the archive came into being),
 * and nothing the ledger covers changes.
 */
export async function rewrapSigningKey(req: RewrapRequest): Promise<RewrapResult> {
  const layout = archiveLayout(req.archiveDir);
  const lock = await LedgerLock.acquire({ ledger: layout.ledger, holder: layout.lock }, { timeoutMs: req.lockTimeoutMs, command: 'key rewrap', kind: 'exclusive' });
  try {
    const { privateKey, format } = await openSigningKeyFile(layout.privateKey, req.passphrase);
    await assertSigningKeyMatches({ ledger: layout.ledger, privateKey: layout.privateKey, publicKey: layout.publicKey }, privateKey);
    const target = req.newPassphrase ?? req.passphrase;
    const current = format === 'custody-v1' ? await signingKeyFileKdf(layout.privateKey) : null;
    const upToDate = current !== null && current.N >= SCRYPT_DEFAULTS.N && current.r >= SCRYPT_DEFAULTS.r;
    if (target === null || (upToDate && req.newPassphrase === null)) {
      return {
        rewrapped: false,
        from: format,
        to: format,
        kdf: current,
        passphraseChanged: false,
        note:
          target === null
            ? 'the signing key is not encrypted; give --new-passphrase-file FILE or --new-passphrase-fd N to encrypt it'
            : 'the signing key is already in the current format; give a new passphrase to change it',
      };
    }
    await replaceSigningKey(layout.privateKey, privateKey, target);
    // The examination KEK is under the same passphrase: it follows the signing key.
    await rewrapExaminationKek(req.archiveDir, req.passphrase, target);
    return {
      rewrapped: true,
      from: format,
      to: 'custody-v1',
      kdf: { ...SCRYPT_DEFAULTS },
      passphraseChanged: req.newPassphrase !== null && req.newPassphrase !== req.passphrase,
      note: null,
    };
  } finally {
    await lock.release();
  }
}

export interface ReportRewrapRequest {
  archiveDir: string;
  /** The report passphrase that opens the report KEK today (null for one made without one). */
  passphrase: string | null;
  newPassphrase: string;
  lockTimeoutMs: number;
}

/**
 * `custody key rewrap --report`: re-encrypts the report KEK (keys/report-kek.key) under a new
 * report passphrase, holding the writer lock. The KEK itself, and so every report key file, is
 * unchanged; nothing is done when there is no report KEK yet. Not recorded in the ledger (as above).
 */
export async function rewrapReportKey(req: ReportRewrapRequest): Promise<{ rewrapped: boolean; note: string | null }> {
  const layout = archiveLayout(req.archiveDir);
  const lock = await LedgerLock.acquire({ ledger: layout.ledger, holder: layout.lock }, { timeoutMs: req.lockTimeoutMs, command: 'key rewrap', kind: 'exclusive' });
  try {
    if (!(await reportKekExists(req.archiveDir))) return { rewrapped: false, note: 'the archive has no report key yet: it is made by `custody init` or the first `custody missing import`' };
    await rewrapReportKek(req.archiveDir, req.passphrase, req.newPassphrase);
    return { rewrapped: true, note: null };
  } finally {
    await lock.release();
  }
}

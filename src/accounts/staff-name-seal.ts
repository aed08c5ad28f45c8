// Staff names, sealed (issue 12: "staff names are sealed like source identities").
//
// Each account's name is encrypted with AES-256-GCM under its own 256-bit key: HKDF-SHA256 of the
// archive's sealing key with the account id as salt. The account id is authenticated as
// additional data, so a sealed name cannot be moved to another account unnoticed.
//
// Format 2 (kdf 'hkdf-sha256') uses that key directly. Format 1, written before, passed the key's
// hex as the *passphrase* of the sources' scrypt sealing (N = 32768, per record): scrypt stretches a
// low-entropy passphrase, and adds nothing to a 256-bit key but ~0.1 s of CPU for every name sealed
// or opened, which every account lookup paid once per account (a sign-in among ten accounts: ten
// scrypt runs, on the server's event loop). Format 1 names still open: archives keep them.
// node:crypto only: no primitive is written here.
import { hkdfSync } from 'node:crypto';
import { openHexBox, openIdentity, sealHexBox, SourceCryptoError, type SealedIdentity } from '../catalogue/sources/index.js';

/** A sealed name in format 2, as the ledger's `account.add` entry and the index hold it. */
export interface SealedStaffName {
  alg: 'AES-256-GCM';
  kdf: 'hkdf-sha256';
  nonce: string;
  ciphertext: string;
  tag: string;
}

const INFO = 'custody staff name v1';

/** The account's name key: HKDF-SHA256(sealing key, salt = account id, info). */
export function staffNameKey(sealingKey: Buffer, accountId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sealingKey, Buffer.from(accountId, 'utf8'), INFO, 32));
}

function aad(accountId: string): string {
  return `account:${accountId}`;
}

export function sealStaffName(sealingKey: Buffer, accountId: string, name: string): SealedStaffName {
  return { alg: 'AES-256-GCM', kdf: 'hkdf-sha256', ...sealHexBox(staffNameKey(sealingKey, accountId), aad(accountId), name) };
}

/**
 * Opens a sealed name of either format. One that does not open is SOURCE_KEY_WRONG, the code a
 * format 1 name has always given (the sealing the sources use).
 */
export function openStaffName(sealingKey: Buffer, accountId: string, sealedJson: string): string {
  let sealed: unknown;
  try {
    sealed = JSON.parse(sealedJson);
  } catch (e) {
    throw unreadable(accountId, e);
  }
  const s = sealed as { [K in keyof SealedStaffName]?: unknown };
  const key = staffNameKey(sealingKey, accountId);
  if (s.kdf === 'scrypt-N32768-r8-p1') {
    // Format 1: the key's hex was the passphrase of the sources' scrypt sealing.
    try {
      return openIdentity(key.toString('hex'), `account:${accountId}`, sealed as SealedIdentity);
    } catch (e) {
      throw unreadable(accountId, e);
    }
  }
  if (s.alg !== 'AES-256-GCM' || s.kdf !== 'hkdf-sha256' || typeof s.nonce !== 'string' ||
    typeof s.ciphertext !== 'string' || typeof s.tag !== 'string' ||
    !/^[0-9a-f]{24}$/.test(s.nonce) || !/^[0-9a-f]{32}$/.test(s.tag))
    throw unreadable(accountId, new Error('not a sealed staff name'));
  try {
    return openHexBox(key, aad(accountId), { nonce: s.nonce, ciphertext: s.ciphertext, tag: s.tag });
  } catch (e) {
    throw unreadable(accountId, e);
  }
}

function unreadable(accountId: string, cause: unknown): SourceCryptoError {
  return new SourceCryptoError(
    'SOURCE_KEY_WRONG',
    `the sealed name of account ${accountId} does not open with this archive's key (another key, or the record was altered)`,
    { cause, details: { account: accountId } },
  );
}

import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { CustodyError } from '../../core/index.js';

export type SourceCryptoErrorCode = 'SOURCE_KEY_WRONG' | 'SOURCE_KEY_REQUIRED';
export class SourceCryptoError extends CustodyError<SourceCryptoErrorCode> {}

/** Ciphertext as it is written in the ledger and the index: nothing here reveals the identity. */
export interface SealedIdentity {
  alg: 'AES-256-GCM';
  kdf: 'scrypt-N32768-r8-p1';
  salt: string;
  nonce: string;
  ciphertext: string;
  tag: string;
}

const SCRYPT = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/**
 * Encrypts a source's real identity and contact details with a key derived (scrypt, per-record
 * salt) from the passphrase that the archive's administrators hold. The codename is bound in as
 * additional authenticated data, so a ciphertext cannot be moved to another source unnoticed.
 * node:crypto only: no primitive is written here.
 */
export function sealIdentity(
  passphrase: string,
  codename: string,
  plaintext: string,
): SealedIdentity {
  const salt = randomBytes(16);
  const nonce = randomBytes(12);
  const key = scryptSync(passphrase, salt, 32, SCRYPT);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(`custody-source:${codename}`, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return {
    alg: 'AES-256-GCM',
    kdf: 'scrypt-N32768-r8-p1',
    salt: salt.toString('hex'),
    nonce: nonce.toString('hex'),
    ciphertext: ciphertext.toString('base64'),
    tag: cipher.getAuthTag().toString('hex'),
  };
}

export function openIdentity(passphrase: string, codename: string, sealed: SealedIdentity): string {
  try {
    const key = scryptSync(passphrase, Buffer.from(sealed.salt, 'hex'), 32, SCRYPT);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.nonce, 'hex'));
    decipher.setAAD(Buffer.from(`custody-source:${codename}`, 'utf8'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'hex'));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed.ciphertext, 'base64')),
      decipher.final(),
    ]).toString('utf8');
  } catch (e) {
    throw new SourceCryptoError(
      'SOURCE_KEY_WRONG',
      'the sources passphrase does not open this identity (wrong passphrase, or the record was altered)',
      { cause: e },
    );
  }
}

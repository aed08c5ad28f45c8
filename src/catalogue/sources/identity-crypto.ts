import { randomBytes, scryptSync } from 'node:crypto';
import { aesGcmOpen, aesGcmSeal, CustodyError } from '../../core/index.js';

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
  const key = scryptSync(passphrase, salt, 32, SCRYPT);
  return { alg: 'AES-256-GCM', kdf: 'scrypt-N32768-r8-p1', salt: salt.toString('hex'), ...sealHexBox(key, `custody-source:${codename}`, plaintext) };
}

/** The nonce, ciphertext and tag of a sealed record (sources, and staff names): hex, base64, hex. */
export interface SealedBox {
  nonce: string;
  ciphertext: string;
  tag: string;
}

/** AES-256-GCM of `plaintext` under a 32-byte `key`, bound to `aad`, as a sealed record writes it. */
export function sealHexBox(key: Buffer, aad: string, plaintext: string): SealedBox {
  const box = aesGcmSeal(key, Buffer.from(aad, 'utf8'), Buffer.from(plaintext, 'utf8'));
  return { nonce: box.nonce.toString('hex'), ciphertext: box.ciphertext.toString('base64'), tag: box.tag.toString('hex') };
}

/** Opens what sealHexBox sealed; throws when the key, the record or the aad differ. */
export function openHexBox(key: Buffer, aad: string, sealed: SealedBox): string {
  return aesGcmOpen(key, Buffer.from(aad, 'utf8'), {
    nonce: Buffer.from(sealed.nonce, 'hex'),
    ciphertext: Buffer.from(sealed.ciphertext, 'base64'),
    tag: Buffer.from(sealed.tag, 'hex'),
  }).toString('utf8');
}

export function openIdentity(passphrase: string, codename: string, sealed: SealedIdentity): string {
  try {
    const key = scryptSync(passphrase, Buffer.from(sealed.salt, 'hex'), 32, SCRYPT);
    return openHexBox(key, `custody-source:${codename}`, sealed);
  } catch (e) {
    throw new SourceCryptoError(
      'SOURCE_KEY_WRONG',
      'the sources passphrase does not open this identity (wrong passphrase, or the record was altered)',
      { cause: e },
    );
  }
}

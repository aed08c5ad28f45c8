// AES-256-GCM, the one authenticated cipher Custody seals with (node:crypto; nothing hand-rolled).
// Each caller keeps its own record format and additional data; this is only the cipher call, so
// that the nonce size, the tag check and the key length are written once.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** What AES-256-GCM produces: a fresh 12-byte nonce, the ciphertext and the 16-byte tag. */
export interface AesGcmBox {
  nonce: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

export const AES_GCM_NONCE_BYTES = 12;
export const AES_GCM_TAG_BYTES = 16;

/** Encrypts `plaintext` under a 32-byte key, binding `aad`; a random nonce each call. */
export function aesGcmSeal(key: Buffer, aad: Buffer, plaintext: Buffer): AesGcmBox {
  const nonce = randomBytes(AES_GCM_NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: AES_GCM_TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { nonce, ciphertext, tag: cipher.getAuthTag() };
}

/** Decrypts and checks the tag; throws (node:crypto's error) when the key, the data or the aad differ. */
export function aesGcmOpen(key: Buffer, aad: Buffer, box: AesGcmBox): Buffer {
  if (box.tag.length !== AES_GCM_TAG_BYTES)
    throw new Error(`an AES-GCM tag is ${AES_GCM_TAG_BYTES} bytes, not ${box.tag.length}`);
  const decipher = createDecipheriv('aes-256-gcm', key, box.nonce, {
    authTagLength: AES_GCM_TAG_BYTES,
  });
  decipher.setAAD(aad);
  decipher.setAuthTag(box.tag);
  return Buffer.concat([decipher.update(box.ciphertext), decipher.final()]);
}

/** aesGcmSeal packed as nonce || ciphertext || tag. */
export function aesGcmSealPacked(key: Buffer, aad: Buffer, plaintext: Buffer): Buffer {
  const box = aesGcmSeal(key, aad, plaintext);
  return Buffer.concat([box.nonce, box.ciphertext, box.tag]);
}

/** Opens what aesGcmSealPacked packed; throws when it is too short or does not open. */
export function aesGcmOpenPacked(key: Buffer, aad: Buffer, packed: Buffer): Buffer {
  if (packed.length < AES_GCM_NONCE_BYTES + AES_GCM_TAG_BYTES)
    throw new Error('too short for nonce and tag');
  return aesGcmOpen(key, aad, {
    nonce: packed.subarray(0, AES_GCM_NONCE_BYTES),
    ciphertext: packed.subarray(AES_GCM_NONCE_BYTES, packed.length - AES_GCM_TAG_BYTES),
    tag: packed.subarray(packed.length - AES_GCM_TAG_BYTES),
  });
}

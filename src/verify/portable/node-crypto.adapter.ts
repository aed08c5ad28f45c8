import { createHash, createPublicKey, verify } from 'node:crypto';
import type { ProofCrypto } from './proof-crypto.js';

/** {@link ProofCrypto} on node:crypto (OpenSSL): what the CLI and the tests run. */
export const nodeProofCrypto: ProofCrypto = Object.freeze({
  name: 'node:crypto',
  sha256(...parts: Uint8Array[]): Uint8Array {
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    return new Uint8Array(h.digest());
  },
  ed25519Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
    if (signature.length !== 64 || publicKey.length !== 32) return false;
    try {
      const x = Buffer.from(publicKey).toString('base64url');
      const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
      return verify(null, message, key, signature);
    } catch {
      return false; // not a point on the curve: not a valid signature
    }
  },
});

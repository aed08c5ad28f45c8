import * as ed from '@noble/ed25519';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import type { ProofCrypto } from './proof-crypto.js';

// @noble/ed25519 needs a synchronous SHA-512 for its synchronous API.
ed.hashes.sha512 = sha512;

/**
 * {@link ProofCrypto} on @noble/hashes and @noble/ed25519 (audited, dependency-free, pure
 * JavaScript): what the browser runs. Verification uses RFC 8032's strict rules
 * (`zip215: false`), as OpenSSL does, so that both adapters accept exactly the same signatures.
 */
export const nobleProofCrypto: ProofCrypto = Object.freeze({
  name: '@noble',
  sha256(...parts: Uint8Array[]): Uint8Array {
    const h = sha256.create();
    for (const p of parts) h.update(p);
    return h.digest();
  },
  ed25519Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
    if (signature.length !== 64 || publicKey.length !== 32) return false;
    try {
      return ed.verify(signature, message, publicKey, { zip215: false });
    } catch {
      return false; // not a point on the curve, S out of range: not a valid signature
    }
  },
});

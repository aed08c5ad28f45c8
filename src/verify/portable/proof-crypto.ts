/**
 * The two primitives a custody-trail check needs, injected so that the same pure code runs on
 * node:crypto (the CLI, the server, the tests) and on @noble/hashes + @noble/ed25519 (the
 * browser, which has no synchronous SHA-256 or Ed25519 of its own).
 */
export interface ProofCrypto {
  /** For messages and tests: "node:crypto", "@noble". */
  readonly name: string;
  /** SHA-256 (FIPS 180-4) over the concatenation of `parts`. */
  sha256(...parts: Uint8Array[]): Uint8Array;
  /**
   * Ed25519 verification (RFC 8032 §5.1.7, strict: non-canonical encodings refused). Untrusted
   * input: anything malformed (wrong lengths, a point not on the curve) is `false`, never a throw.
   */
  ed25519Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}

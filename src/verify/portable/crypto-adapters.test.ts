import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  MerkleTree,
  createEd25519Signer,
  formatVerifierKey,
  hashLeaf,
  signCheckpoint,
  verifyInclusion,
} from '../../core/index.js';
import { loadRfc8032Vectors, type Rfc8032Vector } from '../../../test/fixtures/ed25519/vectors.js';
import { loadMerkleVectors } from '../../../test/fixtures/merkle/vectors.js';
import { nobleProofCrypto } from './noble-crypto.adapter.js';
import { nodeProofCrypto } from './node-crypto.adapter.js';
import {
  base64Of,
  bytesOfHex,
  hashLeafWith,
  hexOf,
  parseVerifierKeyWith,
  verifyCheckpointWith,
  verifyInclusionWith,
  type ProofCrypto,
} from './index.js';

// The browser adapter (@noble) must agree with node:crypto on every input: the same published
// vectors, the same signed checkpoints, the same tampered proofs.
const ADAPTERS: readonly ProofCrypto[] = [nodeProofCrypto, nobleProofCrypto];

const hex = (s: string): Uint8Array => {
  const b = bytesOfHex(s);
  if (b === undefined) throw new Error(`bad hex in a fixture: ${s}`);
  return b;
};
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

const RFC8032 = loadRfc8032Vectors();

// golang.org/x/mod/sumdb/note note_test.go and c2sp.org/signed-note (see src/core/checkpoint.test.ts).
const PETER_VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const GO_TEXT =
  'If you think cryptography is the answer to your problem,\n' +
  "then you don't know what your problem is.\n";
const PETER_NOTE =
  `${GO_TEXT}\n` +
  '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';
const SPEC_VKEY = 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k';
const SPEC_NOTE =
  'This is an example message.\n\n' +
  '— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n';

/** The bare signature of a one-signature note (after the 4-byte key ID). */
function signatureOf(note: string): Uint8Array {
  const line = note.slice(note.lastIndexOf('\n\n') + 2, -1);
  return new Uint8Array(Buffer.from(line.slice(line.lastIndexOf(' ') + 1), 'base64')).subarray(4);
}

describe('SHA-256 (FIPS 180-4 known answers), both adapters', () => {
  it.each(ADAPTERS.map((a) => [a.name, a] as const))('%s', (_name, c) => {
    expect(hexOf(c.sha256())).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(hexOf(c.sha256(utf8('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hexOf(c.sha256(utf8('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(hexOf(c.sha256(utf8('ab'), utf8(''), utf8('c')))).toBe(hexOf(c.sha256(utf8('abc'))));
  });

  it('agrees between node:crypto and @noble on 200 lengths around the block size', () => {
    for (let n = 0; n < 200; n++) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) % 256);
      expect(hexOf(nobleProofCrypto.sha256(data))).toBe(hexOf(nodeProofCrypto.sha256(data)));
    }
  });
});

describe('Ed25519 (RFC 8032 §7.1 test vectors), both adapters', () => {
  it('the vectors are what OpenSSL derives from their seeds (the fixture is not mistyped)', () => {
    for (const v of RFC8032) {
      const der = Buffer.concat([
        Buffer.from('302e020100300506032b657004220420', 'hex'),
        hex(v.secret_key),
      ]);
      const key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
      const pub = createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(-32);
      expect(hexOf(pub), v.name).toBe(v.public_key);
      expect(hexOf(sign(null, hex(v.message), key)), v.name).toBe(v.signature);
    }
  });

  describe.each(ADAPTERS.map((a) => [a.name, a] as const))('%s', (_name, c) => {
    it.each(RFC8032.map((v) => [v.name, v] as const))('accepts %s', (_n, v) => {
      expect(c.ed25519Verify(hex(v.signature), hex(v.message), hex(v.public_key))).toBe(true);
    });

    it.each(RFC8032.map((v) => [v.name, v] as const))(
      'refuses %s with one bit flipped anywhere',
      (_n, v) => {
        const [sig, msg, pub] = [hex(v.signature), hex(v.message), hex(v.public_key)];
        for (const i of [0, 31, 32, 63]) {
          const bad = sig.slice();
          bad[i] = (bad[i] ?? 0) ^ 0x01;
          expect(c.ed25519Verify(bad, msg, pub), `signature byte ${i}`).toBe(false);
        }
        const badPub = pub.slice();
        badPub[0] = (badPub[0] ?? 0) ^ 0x01;
        expect(c.ed25519Verify(sig, msg, badPub)).toBe(false);
        expect(c.ed25519Verify(sig, Uint8Array.of(...msg, 0), pub)).toBe(false);
      },
    );

    it('refuses a non-canonical S (S + L: malleability, RFC 8032 §5.1.7 step 1)', () => {
      const v = RFC8032[0] as Rfc8032Vector;
      const sig = hex(v.signature);
      const L = 2n ** 252n + 27742317777372353535851937790883648493n;
      let s = 0n;
      for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(sig[i] as number);
      let t = s + L;
      const bad = sig.slice();
      for (let i = 32; i < 64; i++) {
        bad[i] = Number(t & 0xffn);
        t >>= 8n;
      }
      expect(c.ed25519Verify(bad, hex(v.message), hex(v.public_key))).toBe(false);
    });

    it('refuses wrong lengths without throwing', () => {
      const v = RFC8032[1] as Rfc8032Vector;
      expect(c.ed25519Verify(hex(v.signature).subarray(1), hex(v.message), hex(v.public_key))).toBe(
        false,
      );
      expect(c.ed25519Verify(hex(v.signature), hex(v.message), hex(v.public_key).subarray(1))).toBe(
        false,
      );
      expect(
        c.ed25519Verify(new Uint8Array(64), hex(v.message), new Uint8Array(32).fill(0xff)),
      ).toBe(false);
    });

    it('derives the key IDs of the Go and C2SP verifier keys and verifies their notes', () => {
      for (const [vkey, note] of [
        [PETER_VKEY, PETER_NOTE],
        [SPEC_VKEY, SPEC_NOTE],
      ] as const) {
        const key = parseVerifierKeyWith(c, vkey);
        const text = note.slice(0, note.lastIndexOf('\n\n') + 1);
        expect(c.ed25519Verify(signatureOf(note), utf8(text), key.publicKey)).toBe(true);
        expect(c.ed25519Verify(signatureOf(note), utf8(`${text} `), key.publicKey)).toBe(false);
      }
      // The Go note is signed but is no checkpoint: the signature passes, the body does not.
      expect(verifyCheckpointWith(c, PETER_NOTE, PETER_VKEY)).toMatchObject({
        ok: false,
        code: 'CHECKPOINT_MALFORMED',
      });
      const edited = PETER_NOTE.replace('answer', 'Answer');
      expect(verifyCheckpointWith(c, edited, PETER_VKEY)).toMatchObject({
        ok: false,
        code: 'NOTE_NO_VALID_SIGNATURE',
      });
      expect(() => parseVerifierKeyWith(c, PETER_VKEY.replace('c74f20a3', 'c74f20a4'))).toThrow(
        /key ID/,
      );
    });
  });
});

describe('RFC 9162 inclusion proofs (published vectors), both adapters', () => {
  const V = loadMerkleVectors();
  it.each(ADAPTERS.map((a) => [a.name, a] as const))('%s agrees with every vector', (_name, c) => {
    expect(V.inclusion.length).toBeGreaterThan(0);
    for (const p of V.inclusion) {
      const leaf = hashLeafWith(c, hex(p.leaf_hex));
      const ok = verifyInclusionWith(
        c,
        p.leaf_index,
        p.tree_size,
        leaf,
        p.path.map(hex),
        hex(p.root),
      );
      expect(ok, `leaf ${p.leaf_index} of ${p.tree_size}`).toBe(p.expect_valid);
    }
  });

  it('agrees with core/merkle.ts on every proof of trees of 1..24 leaves, and on each proof tampered', () => {
    for (let size = 1; size <= 24; size++) {
      const leaves = Array.from({ length: size }, (_, i) => hashLeaf(utf8(`entry ${i}`)));
      const tree = new MerkleTree(leaves);
      const root = tree.root();
      for (let i = 0; i < size; i++) {
        const proof = tree.inclusionProof(i);
        const variants: Uint8Array[][] = [proof];
        if (proof.length > 0) {
          const flipped = proof.map((p) => new Uint8Array(p));
          const first = flipped[0] as Uint8Array;
          first[5] = (first[5] ?? 0) ^ 0x80;
          variants.push(flipped, proof.slice(1), [...proof, root]);
        }
        for (const variant of variants) {
          const expected = verifyInclusion(i, size, leaves[i] as Uint8Array, variant, root);
          for (const c of ADAPTERS) {
            expect(verifyInclusionWith(c, i, size, leaves[i] as Uint8Array, variant, root)).toBe(
              expected,
            );
          }
        }
        expect(
          verifyInclusionWith(nobleProofCrypto, i, size, leaves[i] as Uint8Array, proof, root),
        ).toBe(true);
      }
    }
  });
});

describe('a signed checkpoint of the custody ledger, checked by the browser adapter', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const origin = 'custody.example/archive-01';
  const signer = createEd25519Signer(origin, privateKey);
  const vkey = formatVerifierKey(origin, publicKey);
  const leaves = Array.from({ length: 13 }, (_, i) => hashLeaf(utf8(`{"seq":${i}}`)));
  const tree = new MerkleTree(leaves);
  const note = signCheckpoint(
    { origin, size: tree.size, root: tree.root(), extensions: [] },
    signer,
  );

  it.each(ADAPTERS.map((a) => [a.name, a] as const))(
    '%s opens the note and proves leaf 7 in it',
    (_name, c) => {
      const r = verifyCheckpointWith(c, note, vkey);
      if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
      expect(r).toMatchObject({ origin, size: 13, signedBy: origin });
      expect(base64Of(r.root)).toBe(tree.root().toString('base64'));
      expect(
        verifyInclusionWith(c, 7, r.size, leaves[7] as Uint8Array, tree.inclusionProof(7), r.root),
      ).toBe(true);
      expect(
        verifyInclusionWith(c, 7, r.size, leaves[8] as Uint8Array, tree.inclusionProof(7), r.root),
      ).toBe(false);
    },
  );

  it.each(ADAPTERS.map((a) => [a.name, a] as const))(
    '%s refuses an edited root, another key, and junk',
    (_name, c) => {
      const other = new MerkleTree([...leaves, hashLeaf(utf8('planted'))]);
      const editedRoot = note.replace(
        tree.root().toString('base64'),
        other.root().toString('base64'),
      );
      expect(editedRoot).not.toBe(note);
      expect(verifyCheckpointWith(c, editedRoot, vkey)).toMatchObject({
        ok: false,
        code: 'NOTE_NO_VALID_SIGNATURE',
      });
      const stranger = formatVerifierKey(origin, generateKeyPairSync('ed25519').publicKey);
      expect(verifyCheckpointWith(c, note, stranger)).toMatchObject({
        ok: false,
        code: 'NOTE_NO_VALID_SIGNATURE',
      });
      expect(verifyCheckpointWith(c, note.replace('\n\n', '\n'), vkey)).toMatchObject({
        ok: false,
        code: 'NOTE_MALFORMED',
      });
      expect(verifyCheckpointWith(c, note, 'not a key')).toMatchObject({
        ok: false,
        code: 'KEY_MALFORMED',
      });
    },
  );
});

import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalBytes, createEd25519Signer, formatVerifierKey, hashLeaf, MerkleTree, signCheckpoint, toHex } from '../../core/index.js';
import { checkProofs, parseIngestion } from './check-proofs.js';
import { StepFindings } from './findings.js';
import { parsePinnedKey, signatureNames } from './keys.js';
import { isItemPath, parseItemRow, parseJsonArray, parseProofFile } from './layout.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const ORIGIN = 'custody.example.org/case-12';
const entry = (seq: number, type = 'ingestion', items = ['ITEM'], objects = ['ab'.repeat(32)]) =>
  canonicalBytes({ seq, time: '2025-03-01T10:00:00.000Z', actor: 'a', type, items, objects, details: {} });

describe('pinned keys', () => {
  it('reads a verifier key line or a PEM, and both verify the same note', () => {
    const note = signCheckpoint({ origin: ORIGIN, size: 1, root: Buffer.alloc(32), extensions: [] }, createEd25519Signer(ORIGIN, privateKey));
    const line = parsePinnedKey(`  ${formatVerifierKey(ORIGIN, publicKey)}\n`);
    const pem = parsePinnedKey(publicKey.export({ type: 'spki', format: 'pem' }).toString());
    expect([line.kind, pem.kind]).toEqual(['vkey', 'pem']);
    expect(signatureNames(note)).toEqual([ORIGIN]);
    for (const key of [line, pem]) {
      const [v] = key.verifiers([ORIGIN]);
      expect(v?.verify(Buffer.from(note.slice(0, note.indexOf('\n\n') + 1)), Buffer.alloc(64))).toBe(false);
      expect(key.asVerifierKey(ORIGIN)).toBe(formatVerifierKey(ORIGIN, publicKey));
    }
  });

  it('refuses anything else with KEY_MALFORMED', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    for (const text of ['not a key', 'a+b+c', '-----BEGIN PUBLIC KEY-----\nxx\n-----END PUBLIC KEY-----\n', rsa, `${formatVerifierKey(ORIGIN, publicKey)}\nsecond line`]) {
      expect(() => parsePinnedKey(text), text.slice(0, 30)).toThrow(expect.objectContaining({ code: 'KEY_MALFORMED' }) as Error);
    }
  });
});

describe('entries and proofs', () => {
  it('accepts only the canonical ingestion entry of the expected seq', () => {
    expect(parseIngestion(entry(4), 4)).toEqual({ seq: 4, items: ['ITEM'], objects: ['ab'.repeat(32)] });
    expect(parseIngestion(entry(4), 5)).toMatch(/seq/);
    expect(parseIngestion(entry(4, 'metadata extraction'), 4)).toMatch(/not an ingestion/);
    expect(parseIngestion(Buffer.from(` ${entry(4).toString()}`), 4)).toMatch(/RFC 8785/);
    expect(parseIngestion(entry(4, 'ingestion', ['ITEM'], ['nothex']), 4)).toMatch(/malformed/);
  });

  it('checks leaf hash, tree size and path against the checkpoint root (RFC 9162 §2.1.3.2)', () => {
    const entries = [0, 1, 2, 3, 4].map((s) => entry(s, 'ingestion', [`I${s}`]));
    const tree = new MerkleTree(entries.map((e) => hashLeaf(e)));
    const cp = { origin: ORIGIN, size: 5, root: tree.root(), extensions: [] };
    const proofFor = (seq: number, patch: object = {}) => ({
      path: `custody/proofs/I${seq}.json`,
      proof: { item_id: `I${seq}`, seq, tree_size: 5, leaf_hash: toHex(hashLeaf(entries[seq] as Buffer)), proof: tree.inclusionProof(seq).map(toHex), entry: `entries/${seq}.json`, ...patch },
      entryBytes: entries[seq],
    });
    const run = (p: ReturnType<typeof proofFor>) => {
      const out = new StepFindings(4);
      const proven = checkProofs(cp, [p], out);
      return { proven: proven.size, codes: out.findings.map((f) => `${f.code}: ${f.message}`) };
    };
    expect(run(proofFor(3))).toEqual({ proven: 1, codes: [] });
    expect(run(proofFor(3, { tree_size: 4 })).codes[0]).toMatch(/EXPORT_PROOF_INVALID: .*tree_size/);
    expect(run(proofFor(3, { seq: 2 })).codes[0]).toMatch(/EXPORT_PROOF_INVALID: .*entries\/2\.json/);
    expect(run(proofFor(3, { leaf_hash: '00'.repeat(32) })).codes[0]).toMatch(/leaf_hash/);
    expect(run(proofFor(3, { proof: tree.inclusionProof(2).map(toHex) })).codes[0]).toMatch(/does not recompute/);
    expect(run({ ...proofFor(3), path: 'custody/proofs/I2.json' }).codes[0]).toMatch(/carries item_id I3/);
  });
});

describe('layout files', () => {
  it('parses proofs and item rows strictly', () => {
    expect(parseProofFile({ item_id: 'I', seq: 1, tree_size: 2, leaf_hash: 'AB'.repeat(32), proof: [], entry: 'entries/1.json' }, 'p')).toMatch(/hex/);
    expect(parseProofFile({ item_id: 'I', seq: -1, tree_size: 2, leaf_hash: 'ab'.repeat(32), proof: [], entry: 'e' }, 'p')).toMatch(/lacks/);
    const row = { item_id: 'I', bag_path: null, sha256: 'ab'.repeat(32), size: 1, ingestion_seq: 2, withheld: 'court order' };
    expect(parseItemRow(row, 0)).toEqual(row);
    expect(parseItemRow({ ...row, size: '1' }, 0)).toMatch(/row 1 lacks size/);
    expect(parseJsonArray(Buffer.from('{"a":1}'), 'x')).toMatch(/array/);
    expect(parseJsonArray(Buffer.from('[1'), 'x')).toMatch(/JSON/);
  });

  it('knows the item file names of LAYOUT.md', () => {
    expect(isItemPath('data/items/01ABC-IMG_0001.jpg', '01ABC')).toBe(true);
    expect(isItemPath('data/items/01ABC-', '01ABC')).toBe(true);
    expect(isItemPath('data/items/01ABD-x.jpg', '01ABC')).toBe(false);
    expect(isItemPath('data/items/01ABC-sub/x.jpg', '01ABC')).toBe(false);
    expect(isItemPath('data/previews/01ABC.webp', '01ABC')).toBe(false);
  });
});

import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createEd25519Signer,
  createEd25519Verifier,
  formatCheckpoint,
  formatVerifierKey,
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  signCheckpoint,
  signNote,
  verifyCheckpoint,
  type Checkpoint,
} from './checkpoint.js';
import { CoreError } from './errors.js';
import { hashLeaf, MerkleTree } from './merkle.js';
import { toHex } from './sha256.js';

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    if (e instanceof CoreError) return e.code;
    throw e;
  }
  return undefined;
}

/** An Ed25519 private key from its 32-byte RFC 8032 seed (PKCS#8 prefix of RFC 8410). */
function keyFromSeed(seed: Uint8Array): KeyObject {
  const prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
  return createPrivateKey({ key: Buffer.concat([prefix, seed]), format: 'der', type: 'pkcs8' });
}

// Known answers from golang.org/x/mod/sumdb/note, note_test.go (TestNewSigner, TestSign, TestOpen)
// at golang/mod@02c991387e35f9e4c0a9b7ce137717055f8d716d (BSD-3-Clause), used as data.
const GO_SKEY = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const PETER_VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const ENOCH_VKEY = 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop';
const GO_TEXT =
  'If you think cryptography is the answer to your problem,\n' +
  "then you don't know what your problem is.\n";
const PETER_SIG =
  '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';
const ENOCH_SIG =
  '— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n';

// The example of c2sp.org/signed-note ("Verifier keys"), as quoted by several implementations.
const SPEC_VKEY = 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k';
const SPEC_NOTE =
  'This is an example message.\n\n' +
  '— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n';

describe('known answers', () => {
  const seed = Buffer.from(GO_SKEY.split('+').slice(4).join('+'), 'base64');
  const peterKey = keyFromSeed(seed.subarray(1));

  it('derives the Go key ID and verifier key from the PeterNeumann private key', () => {
    expect(seed[0]).toBe(0x01);
    const signer = createEd25519Signer('PeterNeumann', peterKey);
    expect(toHex(signer.keyId)).toBe('c74f20a3');
    expect(formatVerifierKey('PeterNeumann', createPublicKey(peterKey))).toBe(PETER_VKEY);
    expect(toHex(parseVerifierKey(PETER_VKEY).keyId)).toBe('c74f20a3');
  });

  it('signs the Go example text byte for byte (Ed25519 is deterministic)', () => {
    const signer = createEd25519Signer('PeterNeumann', peterKey);
    expect(signNote(GO_TEXT, [signer])).toBe(`${GO_TEXT}\n${PETER_SIG}`);
  });

  it('opens the Go example note, ignoring the unknown EnochRoot signature', () => {
    const note = `${GO_TEXT}\n${PETER_SIG}${ENOCH_SIG}`;
    const peter = parseVerifierKey(PETER_VKEY);
    expect(openNote(note, [peter])).toEqual({ text: GO_TEXT, verifiedBy: ['PeterNeumann'] });
    const both = openNote(note, [peter, parseVerifierKey(ENOCH_VKEY)]);
    expect(both.verifiedBy).toEqual(['PeterNeumann', 'EnochRoot']);
    expect(codeOf(() => openNote(note, []))).toBe('NOTE_NO_VALID_SIGNATURE');
  });

  it('rejects the Go invalid-signature case (bytes inserted into the signature)', () => {
    const bad = `${GO_TEXT}\n${PETER_SIG.slice(0, 60)}ABCD${PETER_SIG.slice(60)}`;
    expect(codeOf(() => openNote(bad, [parseVerifierKey(PETER_VKEY)]))).toBe(
      'NOTE_NO_VALID_SIGNATURE',
    );
  });

  it.each<[string, string]>([
    ['text only', GO_TEXT],
    ['blank line but no signature', `${GO_TEXT}\n`],
    ['signature line without newline', `${GO_TEXT}\n${PETER_SIG.slice(0, -1)}`],
    ['control character', `\x01${GO_TEXT}\n${PETER_SIG}`],
    ['lone surrogate (invalid UTF-8)', `\ud800${GO_TEXT}\n${PETER_SIG}`],
    ['name with a space', `${GO_TEXT}\n— Bad Name ${PETER_SIG.slice(16)}`],
    ['unexpected line', `${GO_TEXT}\n${PETER_SIG}Unexpected line.\n`],
    ['101 signatures', `${GO_TEXT}\n${PETER_SIG.repeat(101)}`],
  ])('rejects the Go malformed note: %s', (_name, note) => {
    expect(codeOf(() => openNote(note, [parseVerifierKey(PETER_VKEY)]))).toBe('NOTE_MALFORMED');
  });

  it('accepts 100 identical signatures (the limit)', () => {
    const note = `${GO_TEXT}\n${PETER_SIG.repeat(100)}`;
    expect(openNote(note, [parseVerifierKey(PETER_VKEY)]).verifiedBy).toEqual(['PeterNeumann']);
  });

  it('verifies the c2sp.org/signed-note example note with its verifier key', () => {
    const verifier = parseVerifierKey(SPEC_VKEY);
    expect(toHex(verifier.keyId)).toBe('530d903a');
    expect(openNote(SPEC_NOTE, [verifier])).toEqual({
      text: 'This is an example message.\n',
      verifiedBy: ['example.com/foo'],
    });
  });

  it('parses the c2sp.org/tlog-checkpoint example and ignores its unknown signature', () => {
    const body =
      'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
    const cp = parseCheckpoint(body);
    expect(cp).toMatchObject({ origin: 'example.com/behind-the-sofa', size: 20852163 });
    expect(cp.root).toHaveLength(32);
    expect(formatCheckpoint(cp)).toBe(body);
    const note = `${body}\n— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n`;
    expect(codeOf(() => openNote(note, [parseVerifierKey(PETER_VKEY)]))).toBe(
      'NOTE_NO_VALID_SIGNATURE',
    );
  });
});

describe('signed checkpoints', () => {
  const ORIGIN = 'custody.example/ledger';
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const signer = createEd25519Signer(ORIGIN, privateKey);
  const verifier = createEd25519Verifier(ORIGIN, publicKey);
  const tree = new MerkleTree([1, 2, 3].map((i) => hashLeaf(Buffer.of(i))));
  const cp: Checkpoint = { origin: ORIGIN, size: tree.size, root: tree.root(), extensions: [] };
  const note = signCheckpoint(cp, signer);
  const b64 = (b: Buffer): string => b.toString('base64');
  const noteCode = (n: string, v = verifier): string | undefined =>
    codeOf(() => verifyCheckpoint(n, v));

  it('round-trips, with and without extension lines', () => {
    expect(note.startsWith(`${ORIGIN}\n3\n${tree.root().toString('base64')}\n\n— ${ORIGIN} `)).toBe(
      true,
    );
    expect(verifyCheckpoint(note, verifier)).toEqual(cp);
    const withExt = { ...cp, extensions: ['Timestamp: 1700000000', 'x y z'] };
    expect(verifyCheckpoint(signCheckpoint(withExt, signer), verifier)).toEqual(withExt);
    const vkey = formatVerifierKey(ORIGIN, publicKey);
    expect(verifyCheckpoint(note, parseVerifierKey(vkey))).toEqual(cp);
  });

  it('round-trips the empty tree', () => {
    const empty = { origin: ORIGIN, size: 0, root: new MerkleTree().root(), extensions: [] };
    expect(verifyCheckpoint(signCheckpoint(empty, signer), verifier)).toEqual(empty);
  });

  it('collects every known signer of a cosigned note', () => {
    const witness = generateKeyPairSync('ed25519');
    const wSigner = createEd25519Signer('witness.example/w1', witness.privateKey);
    const wVerifier = createEd25519Verifier('witness.example/w1', witness.publicKey);
    const cosigned = signNote(formatCheckpoint(cp), [signer, wSigner]);
    expect(openNote(cosigned, [wVerifier, verifier]).verifiedBy).toEqual([
      ORIGIN,
      'witness.example/w1',
    ]);
  });

  it.each<[string, (n: string) => string]>([
    ['changed size', (n) => n.replace(`${ORIGIN}\n3\n`, `${ORIGIN}\n4\n`)],
    ['changed root', (n) => n.replace(b64(tree.root()), b64(tree.root(2)))],
    ['changed origin', (n) => n.replace(`${ORIGIN}\n3`, `custody.example/other\n3`)],
    ['added extension line', (n) => n.replace('\n\n', '\nextra\n\n')],
    ['flipped signature bit', flipSignatureBit],
  ])('%s: NOTE_NO_VALID_SIGNATURE', (_name, tamper) => {
    const tampered = tamper(note);
    expect(tampered).not.toBe(note);
    expect(noteCode(tampered)).toBe('NOTE_NO_VALID_SIGNATURE');
  });

  it('a signature by another key with the same name is unknown, so nothing verifies', () => {
    const other = createEd25519Signer(ORIGIN, generateKeyPairSync('ed25519').privateKey);
    expect(other.keyId.equals(signer.keyId)).toBe(false);
    expect(noteCode(signCheckpoint(cp, other))).toBe('NOTE_NO_VALID_SIGNATURE');
  });

  it('a known key whose signature fails rejects the note even if another verifies', () => {
    const witness = generateKeyPairSync('ed25519');
    const wSigner = createEd25519Signer('witness.example/w1', witness.privateKey);
    const wVerifier = createEd25519Verifier('witness.example/w1', witness.publicKey);
    const broken = flipSignatureBit(signNote(formatCheckpoint(cp), [signer, wSigner]));
    expect(openNote(broken, [verifier]).verifiedBy).toEqual([ORIGIN]); // witness unknown: ignored
    expect(codeOf(() => openNote(broken, [verifier, wVerifier]))).toBe('NOTE_NO_VALID_SIGNATURE');
  });

  it.each<[string, (n: string) => string]>([
    ['missing blank line', (n) => n.replace('\n\n', '\n')],
    ['CRLF line endings', (n) => n.replaceAll('\n', '\r\n')],
    ['CR before the signatures', (n) => n.replace('\n\n', '\n\r\n')],
    ['trailing garbage', (n) => `${n}garbage`],
    ['hyphen instead of em dash', (n) => n.replace('— ', '- ')],
    ['unpadded signature', (n) => n.replace(/=\n$/, '\n')],
    ['signature of only 4 bytes', (n) => n.replace(/ [A-Za-z0-9+/=]+\n$/, ' AAAAAA==\n')],
  ])('%s: NOTE_MALFORMED', (_name, tamper) => {
    expect(noteCode(tamper(note))).toBe('NOTE_MALFORMED');
  });

  it('refuses to sign text that no verifier could open', () => {
    expect(codeOf(() => signNote('no final newline', [signer]))).toBe('NOTE_MALFORMED');
    expect(codeOf(() => signNote('tab\there\n', [signer]))).toBe('NOTE_MALFORMED');
    expect(codeOf(() => signNote('crlf\r\n', [signer]))).toBe('NOTE_MALFORMED');
    expect(codeOf(() => signNote('nobody\n', []))).toBe('NOTE_MALFORMED');
  });
});

/** Flips one bit inside the Ed25519 signature (after the 4-byte key ID) of the last line. */
function flipSignatureBit(note: string): string {
  const at = note.lastIndexOf(' ') + 1;
  const raw = Buffer.from(note.slice(at, -1), 'base64');
  raw[10] = (raw[10] ?? 0) ^ 0x01;
  return `${note.slice(0, at)}${raw.toString('base64')}\n`;
}

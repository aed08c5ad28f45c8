// The signing key against an insider with file access but no passphrase (issue 9, "Keys and
// files"): how the key file is encrypted (12g), the migration of old PBKDF2 keys (`key rewrap`),
// `key --public` on a tampered copy (12h), a swapped signing key (7b), and where passphrases come from.
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cloneArchive,
  custody,
  custodyIn,
  custodyInExpect,
  fileMode,
  hashTree,
  type InitJson,
  type TestArchive,
  writeExtraFiles,
  writeSourceTree,
} from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

const PASSPHRASE = 'correct horse battery staple';
const keyFile = (dir: string): string => join(dir, 'keys', 'checkpoint-signing.pem');
const verifierFile = (dir: string): string => join(dir, 'keys', 'checkpoint-verifier.txt');

interface KeyFileJson {
  format: string;
  version: number;
  algorithm: string;
  public_key: string;
  kdf: { name: string; N: number; r: number; p: number; salt: string };
  cipher: { name: string; nonce: string };
  passphrase_check: string;
  ciphertext: string;
  tag: string;
}

/** The 32-byte Ed25519 key in `<name>+<id>+<base64(0x01 ‖ key)>` (the base64 may hold '+'). */
const rawOf = (vkey: string): Buffer => Buffer.from(vkey.split('+').slice(2).join('+'), 'base64').subarray(1);

const readKeyJson = async (dir: string): Promise<KeyFileJson> =>
  JSON.parse(await readFile(keyFile(dir), 'utf8')) as KeyFileJson;

/** The ledger and its checkpoints, byte for byte: what a refused write must leave alone. */
async function ledgerState(dir: string): Promise<Map<string, string>> {
  return hashTree(join(dir, 'ledger'));
}

async function initIn(dir: string, env: Record<string, string>): Promise<TestArchive> {
  const r = await custodyInExpect(0, ['init', '--archive', dir, '--json'], env);
  const init = JSON.parse(r.stdout) as InitJson;
  return { dir, origin: init.origin, verifierKey: init.verifier_key, env };
}

let base: string;
let passFile: string;
let src: string;
let encrypted: TestArchive;
let plain: TestArchive;

beforeAll(async () => {
  base = await makeTempDir('keys');
  passFile = join(base, 'passphrase.txt');
  await writeFile(passFile, `${PASSPHRASE}\n`, { mode: 0o600 });
  src = (await writeSourceTree(join(base, 'src'))).root;
  encrypted = await initIn(join(base, 'encrypted'), { CUSTODY_KEY_PASSPHRASE: PASSPHRASE });
  await custodyInExpect(0, ['ingest', src, '--source', 'S', '--new-source', '--archive', encrypted.dir], encrypted.env);
  plain = await initIn(join(base, 'plain'), {});
  await custodyInExpect(0, ['ingest', src, '--source', 'S', '--new-source', '--archive', plain.dir]);
}, 60_000);

describe('12g: the signing key file', () => {
  it('is a custody-signing-key file: scrypt N >= 2^17, r = 8, AES-256-GCM, mode 0600 in a 0700 folder', async () => {
    const k = await readKeyJson(encrypted.dir);
    expect(k).toMatchObject({ format: 'custody-signing-key', version: 1, algorithm: 'Ed25519' });
    expect(k.kdf.name).toBe('scrypt');
    expect(k.kdf.N).toBeGreaterThanOrEqual(2 ** 17);
    expect(Number.isInteger(Math.log2(k.kdf.N))).toBe(true);
    expect(k.kdf.r).toBe(8);
    expect(Buffer.from(k.kdf.salt, 'base64').length).toBeGreaterThanOrEqual(16);
    expect(k.cipher.name).toBe('aes-256-gcm');
    expect(Buffer.from(k.cipher.nonce, 'base64')).toHaveLength(12);
    expect(Buffer.from(k.tag, 'base64')).toHaveLength(16);
    // Nothing of the old format, and the public half is the archive's verifier key.
    expect(await readFile(keyFile(encrypted.dir), 'utf8')).not.toContain('PRIVATE KEY');
    expect(rawOf(encrypted.verifierKey)).toEqual(Buffer.from(k.public_key, 'base64'));
    expect(await fileMode(keyFile(encrypted.dir))).toBe(0o600);
    expect((await stat(join(encrypted.dir, 'keys'))).mode & 0o777).toBe(0o700);
  });

  it('a wrong passphrase -> KEY_PASSPHRASE_WRONG (exit 1), nothing written', async () => {
    const before = await ledgerState(encrypted.dir);
    const r = await custodyIn(['withdraw', '--archive', encrypted.dir, 'x'.repeat(64), '--reason', 'r', '--authority', 'a'], {
      CUSTODY_KEY_PASSPHRASE: 'not the passphrase',
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[KEY_PASSPHRASE_WRONG]');
    expect(await ledgerState(encrypted.dir)).toEqual(before);
  });

  it('a flipped byte in the ciphertext -> KEY_FILE_TAMPERED (exit 1, not 70), nothing written', async () => {
    const a = await cloneArchive(encrypted, 'keys-flip');
    const k = await readKeyJson(a.dir);
    const ct = Buffer.from(k.ciphertext, 'base64');
    ct[5] = (ct[5] ?? 0) ^ 0x01;
    await writeFile(keyFile(a.dir), JSON.stringify({ ...k, ciphertext: ct.toString('base64') }, null, 2));
    const before = await ledgerState(a.dir);
    const r = await custodyIn(['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir], a.env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[KEY_FILE_TAMPERED]');
    expect(await ledgerState(a.dir)).toEqual(before);
  });

  it('a key file asking for an absurd scrypt cost (N = 2^30) -> KEY_FILE_INVALID, never attempted', async () => {
    const a = await cloneArchive(encrypted, 'keys-cost');
    const k = await readKeyJson(a.dir);
    await writeFile(keyFile(a.dir), JSON.stringify({ ...k, kdf: { ...k.kdf, N: 2 ** 30 } }));
    const r = await custodyIn(['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir], a.env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[KEY_FILE_INVALID]');
  });

  it('an edited public_key in the key file -> KEY_FILE_TAMPERED (the public half is authenticated)', async () => {
    const a = await cloneArchive(encrypted, 'keys-pub');
    const k = await readKeyJson(a.dir);
    const other = createPublicKey(generateKeyPairSync('ed25519').privateKey).export({ format: 'jwk' }).x ?? '';
    await writeFile(keyFile(a.dir), JSON.stringify({ ...k, public_key: Buffer.from(other, 'base64url').toString('base64') }));
    const r = await custodyIn(['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir], a.env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[KEY_FILE_TAMPERED]');
  });
});

describe('12g: key rewrap migrates an old PBKDF2 key', () => {
  let old: TestArchive;

  beforeAll(async () => {
    // An archive as earlier versions made it: the same key, PKCS#8 PBES2 with Node's defaults
    // (PBKDF2-HMAC-SHA256 at 2,048 iterations, AES-256-CBC).
    old = await cloneArchive(plain, 'keys-old');
    const key = createPrivateKey(await readFile(keyFile(plain.dir), 'utf8'));
    const pem = key.export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: PASSPHRASE });
    await writeFile(keyFile(old.dir), pem, { mode: 0o600 });
    old = { ...old, env: { CUSTODY_KEY_PASSPHRASE: PASSPHRASE } };
  });

  it('an old key still opens, and a write command warns to run `custody key rewrap`', async () => {
    const a = await cloneArchive(old, 'keys-old-warn');
    const r = await custodyInExpect(0, ['ingest', join(base, 'src'), '--source', 'S2', '--new-source', '--archive', a.dir], a.env);
    expect(r.stderr).toMatch(/warning: .*old format.*custody key rewrap/);
  });

  it('rewrap re-encrypts with scrypt, keeps the key, keeps no old copy, leaves the ledger alone; every command works after', async () => {
    const a = await cloneArchive(old, 'keys-rewrap');
    const before = await ledgerState(a.dir);
    const r = await custodyInExpect(0, ['key', 'rewrap', '--archive', a.dir, '--json'], a.env);
    expect(JSON.parse(r.stdout)).toMatchObject({ rewrapped: true, from: 'pkcs8-encrypted', to: 'custody-v1', passphrase_changed: false, backup: null });
    const k = await readKeyJson(a.dir);
    expect(k.kdf).toMatchObject({ name: 'scrypt', N: 2 ** 17, r: 8 });
    expect(Buffer.from(k.public_key, 'base64')).toEqual(rawOf(a.verifierKey));
    expect(await fileMode(keyFile(a.dir))).toBe(0o600);
    expect((await readdir(join(a.dir, 'keys'))).sort()).toEqual(['checkpoint-signing.pem', 'checkpoint-verifier.txt', 'report-kek.key']);
    expect(await ledgerState(a.dir)).toEqual(before); // not recorded: no entry type fits (see the README)

    const extra = join(await makeTempDir('keys-extra'), 'x');
    await writeExtraFiles(extra, 2);
    const ing = await custodyInExpect(0, ['ingest', extra, '--source', 'S3', '--new-source', '--archive', a.dir, '--json'], a.env);
    expect(ing.stderr).not.toMatch(/warning/);
    const added = (JSON.parse(ing.stdout) as { summary: { items_added: number } }).summary.items_added;
    expect(added).toBe(2);
    const items = JSON.parse((await custodyInExpect(0, ['items', '--archive', a.dir, '--json'])).stdout) as { sha256: string }[];
    await custodyInExpect(0, ['withdraw', items[0]?.sha256 ?? '?', '--reason', 'consent withdrawn', '--authority', 'REF-1', '--archive', a.dir], a.env);
    await custodyInExpect(0, ['rebuild', '--archive', a.dir], a.env);
    await custodyInExpect(0, ['verify', '--archive', a.dir]);
    const pub = await custodyInExpect(0, ['key', '--public', '--archive', a.dir], a.env);
    expect(pub.stdout.trim()).toBe(a.verifierKey);
  });

  it('rewrap with a new passphrase: the new one opens the key, the old one no longer does', async () => {
    const a = await cloneArchive(old, 'keys-newpass');
    const newFile = join(base, 'new-passphrase.txt');
    await writeFile(newFile, 'a much longer new passphrase\n', { mode: 0o600 });
    const r = await custodyInExpect(0, ['key', 'rewrap', '--new-passphrase-file', newFile, '--archive', a.dir, '--json'], a.env);
    expect(JSON.parse(r.stdout)).toMatchObject({ rewrapped: true, passphrase_changed: true });
    const wrong = await custodyIn(['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir], a.env);
    expect(wrong.code, wrong.stderr).toBe(1);
    expect(wrong.stderr).toContain('[KEY_PASSPHRASE_WRONG]');
    await custodyInExpect(0, ['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir, '--key-passphrase-file', newFile]);
  });

  it('rewrap with the wrong passphrase -> KEY_PASSPHRASE_WRONG, the key file untouched', async () => {
    const a = await cloneArchive(old, 'keys-rewrap-wrong');
    const before = await readFile(keyFile(a.dir));
    const r = await custodyIn(['key', 'rewrap', '--archive', a.dir], { CUSTODY_KEY_PASSPHRASE: 'nope' });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[KEY_PASSPHRASE_WRONG]');
    expect(await readFile(keyFile(a.dir))).toEqual(before);
  });

  it('rewrap of a key made without a passphrase encrypts it only when given a new one', async () => {
    const a = await cloneArchive(plain, 'keys-encrypt-plain');
    const nothing = await custodyInExpect(0, ['key', 'rewrap', '--archive', a.dir, '--json']);
    expect(JSON.parse(nothing.stdout)).toMatchObject({ rewrapped: false, from: 'pkcs8-plain' });
    await custodyInExpect(0, ['key', 'rewrap', '--new-passphrase-file', passFile, '--archive', a.dir]);
    expect((await readKeyJson(a.dir)).kdf.name).toBe('scrypt');
    await custodyInExpect(0, ['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir, '--key-passphrase-file', passFile]);
  });
});

describe('12h: key --public checks what it prints', () => {
  it('a tampered verifier key file -> KEY_VERIFIER_FILE_MISMATCH (exit 1), and nothing printed as the key', async () => {
    const a = await cloneArchive(encrypted, 'keys-vfile');
    // Another valid verifier key under the same name: what an insider would hand out.
    const other = (await initIn(join(await makeTempDir('keys-other'), 'a'), {})).verifierKey;
    const forged = `${a.origin}+${other.split('+').slice(1).join('+')}`;
    await writeFile(verifierFile(a.dir), `${forged}\n`);
    for (const json of [[], ['--json']]) {
      const r = await custodyIn(['key', '--public', '--archive', a.dir, ...json]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('[KEY_VERIFIER_FILE_MISMATCH]');
      expect(r.stdout).toBe('');
    }
  });

  it('a key file holding another key -> KEY_MISMATCH, nothing printed', async () => {
    const a = await cloneArchive(plain, 'keys-pub-keyfile');
    const other = await initIn(join(await makeTempDir('keys-other2'), 'a'), {});
    await writeFile(keyFile(a.dir), await readFile(keyFile(other.dir)));
    const r = await custodyIn(['key', '--public', '--archive', a.dir]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[KEY_MISMATCH]');
    expect(r.stdout).toBe('');
  });

  it('an untouched archive prints the key of record, with and without the passphrase', async () => {
    expect((await custodyInExpect(0, ['key', '--public', '--archive', encrypted.dir])).stdout.trim()).toBe(encrypted.verifierKey);
    expect((await custodyInExpect(0, ['key', '--public', '--archive', encrypted.dir], encrypted.env)).stdout.trim()).toBe(encrypted.verifierKey);
  });
});

describe('7b: a write with a signing key that is not the archive key', () => {
  it('another valid key swapped in (same passphrase) -> KEY_MISMATCH (exit 1), ledger and checkpoints unchanged', async () => {
    const a = await cloneArchive(encrypted, 'keys-swap');
    const other = await initIn(join(await makeTempDir('keys-swap-other'), 'a'), { CUSTODY_KEY_PASSPHRASE: PASSPHRASE });
    await writeFile(keyFile(a.dir), await readFile(keyFile(other.dir)), { mode: 0o600 });
    const before = await ledgerState(a.dir);
    const r = await custodyIn(['ingest', join(base, 'src'), '--source', 'S9', '--new-source', '--archive', a.dir], a.env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[KEY_MISMATCH]');
    expect(await ledgerState(a.dir)).toEqual(before);
    // The lock note is gone (lock released); the batch-intent slots stay, empty, and the leaf index with its stamp.
    expect((await readdir(join(a.dir, 'ledger'))).sort()).toEqual(['batch-intent.a', 'batch-intent.b', 'checkpoints', 'entries.jsonl', 'leaves.bin', 'leaves.stamp']);
  });

  it('the key and the verifier copy both swapped -> still KEY_MISMATCH: the record is the creation entry', async () => {
    const a = await cloneArchive(plain, 'keys-swap-both');
    const other = await initIn(join(await makeTempDir('keys-swap-both-other'), 'a'), {});
    await writeFile(keyFile(a.dir), await readFile(keyFile(other.dir)), { mode: 0o600 });
    await writeFile(verifierFile(a.dir), `${a.origin}+${other.verifierKey.split('+').slice(1).join('+')}\n`);
    const before = await ledgerState(a.dir);
    const r = await custodyIn(['withdraw', 'x'.repeat(64), '--reason', 'r', '--authority', 'a', '--archive', a.dir]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[KEY_MISMATCH]');
    expect(await ledgerState(a.dir)).toEqual(before);
  });

  it('the right key but a tampered verifier copy -> KEY_VERIFIER_FILE_MISMATCH, nothing written', async () => {
    const a = await cloneArchive(plain, 'keys-vcopy-write');
    const other = await initIn(join(await makeTempDir('keys-vcopy-other'), 'a'), {});
    await writeFile(verifierFile(a.dir), `${other.verifierKey}\n`);
    const before = await ledgerState(a.dir);
    const r = await custodyIn(['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[KEY_VERIFIER_FILE_MISMATCH]');
    expect(await ledgerState(a.dir)).toEqual(before);
  });

  it('a passphrase given but an unencrypted key swapped in -> KEY_NOT_ENCRYPTED, nothing written', async () => {
    const a = await cloneArchive(encrypted, 'keys-plain-swap');
    const other = await initIn(join(await makeTempDir('keys-plain-other'), 'a'), {});
    await writeFile(keyFile(a.dir), await readFile(keyFile(other.dir)), { mode: 0o600 });
    const before = await ledgerState(a.dir);
    const r = await custodyIn(['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir], a.env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[KEY_NOT_ENCRYPTED]');
    expect(await ledgerState(a.dir)).toEqual(before);
  });
});

describe('where the passphrase comes from', () => {
  it('--key-passphrase-file', async () => {
    const a = await cloneArchive(encrypted, 'keys-pf');
    await custodyInExpect(0, ['checkpoint', '--archive', a.dir]);
    await custodyInExpect(0, ['ingest', src, '--source', 'PF', '--new-source', '--archive', a.dir, '--key-passphrase-file', passFile]);
  });

  it('CUSTODY_KEY_PASSPHRASE_FILE', async () => {
    const a = await cloneArchive(encrypted, 'keys-envfile');
    await custodyInExpect(0, ['ingest', src, '--source', 'EF', '--new-source', '--archive', a.dir], { CUSTODY_KEY_PASSPHRASE_FILE: passFile });
  });

  it('--key-passphrase-fd: a descriptor handed to the real binary (its stdin here)', async () => {
    const a = await cloneArchive(encrypted, 'keys-fd');
    const ok = await custody(['ingest', src, '--source', 'FD', '--new-source', '--archive', a.dir, '--key-passphrase-fd', '0'], {}, { input: `${PASSPHRASE}\n` });
    expect(ok.code, ok.stderr).toBe(0);
    const bad = await custody(['ingest', src, '--source', 'FD', '--new-source', '--archive', a.dir, '--key-passphrase-fd', '0'], {}, { input: 'wrong\n' });
    expect(bad.code, bad.stderr).toBe(1);
    expect(bad.stderr).toContain('[KEY_PASSPHRASE_WRONG]');
  });

  it('a file and a descriptor at once, or an empty passphrase -> usage error (exit 2)', async () => {
    const both = await custodyIn(['ingest', src, '--source', 'S', '--new-source', '--archive', encrypted.dir, '--key-passphrase-file', passFile, '--key-passphrase-fd', '0']);
    expect(both.code, both.stderr).toBe(2);
    const empty = join(base, 'empty.txt');
    await writeFile(empty, '\n');
    const e = await custodyIn(['ingest', src, '--source', 'S', '--new-source', '--archive', encrypted.dir, '--key-passphrase-file', empty]);
    expect(e.code, e.stderr).toBe(2);
    expect(e.stderr).toContain('[USAGE]');
  });
});

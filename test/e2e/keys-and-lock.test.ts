// The checkpoint-signing key (mode, encryption, passphrase handling) and the single-writer lock.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkpointBody,
  custody,
  custodyExpect,
  custodyInExpect,
  fileMode,
  listItems,
  writeSourceTree,
  type TestArchive,
} from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

const keyFile = (a: TestArchive): string => join(a.dir, 'keys', 'checkpoint-signing.pem');
const lockFile = (a: TestArchive): string => join(a.dir, 'ledger', 'writer.lock');

describe('the signing key without a passphrase', () => {
  it('init warns on stderr and writes the key as plain PKCS#8, mode 0600', async () => {
    const dir = join(await makeTempDir('key-plain'), 'archive');
    const r = await custodyExpect(0, ['init', '--archive', dir, '--json']);
    expect(r.stderr).toMatch(/warning/i);
    expect(r.stderr).toMatch(/not encrypted/);
    expect(JSON.parse(r.stdout)).toMatchObject({ key_encrypted: false, database: 'sqlite' });
    const a = { dir, origin: '', verifierKey: '', env: {} };
    expect(await fileMode(keyFile(a))).toBe(0o600);
    const pem = await readFile(keyFile(a), 'utf8');
    expect(pem).toContain('-----BEGIN PRIVATE KEY-----');
    expect(pem).not.toContain('ENCRYPTED');
  });
});

describe('the signing key with a passphrase', () => {
  const passphrase = 'correct horse battery staple';
  let archive: TestArchive;
  let base: string;
  let passFile: string;
  let src: string;

  beforeAll(async () => {
    base = await makeTempDir('key-encrypted');
    src = (await writeSourceTree(join(base, 'src'))).root;
    passFile = join(base, 'passphrase.txt');
    await writeFile(passFile, `${passphrase}\n`, { mode: 0o600 });
    const init = await custodyExpect(0, ['init', '--archive', join(base, 'archive'), '--json'], {
      CUSTODY_KEY_PASSPHRASE: passphrase,
    });
    expect(init.stderr).not.toMatch(/not encrypted/);
    const json = JSON.parse(init.stdout) as {
      origin: string;
      verifier_key: string;
      key_encrypted: boolean;
    };
    expect(json.key_encrypted).toBe(true);
    archive = {
      dir: join(base, 'archive'),
      origin: json.origin,
      verifierKey: json.verifier_key,
      env: {},
    };
  });

  it('is an encrypted custody-signing-key file (scrypt; details in keys.test.ts), mode 0600', async () => {
    const text = await readFile(keyFile(archive), 'utf8');
    expect(JSON.parse(text)).toMatchObject({ format: 'custody-signing-key', kdf: { name: 'scrypt' } });
    expect(text).not.toContain('PRIVATE KEY');
    expect(await fileMode(keyFile(archive))).toBe(0o600);
  });

  it('ingest with the wrong passphrase → exit 1, KEY_PASSPHRASE_WRONG', async () => {
    const r = await custody(['ingest', src, '--source', 'S', '--new-source', '--archive', archive.dir], {
      CUSTODY_KEY_PASSPHRASE: 'wrong',
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[KEY_PASSPHRASE_WRONG]');
    expect(existsSync(lockFile(archive))).toBe(false);
  });

  it('ingest without a passphrase → exit 2, KEY_PASSPHRASE_REQUIRED', async () => {
    const r = await custody(['ingest', src, '--source', 'S', '--new-source', '--archive', archive.dir]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('[KEY_PASSPHRASE_REQUIRED]');
    expect(existsSync(lockFile(archive))).toBe(false);
  });

  it('ingest with --key-passphrase-file → exit 0', async () => {
    const r = await custodyExpect(0, [
      'ingest',
      src,
      '--source',
      'S',
      '--new-source',
      '--archive',
      archive.dir,
      '--key-passphrase-file',
      passFile,
      '--json',
    ]);
    expect((JSON.parse(r.stdout) as { summary: { items_added: number } }).summary.items_added).toBe(
      7,
    );
  });

  // In-process (runCli, with no passphrase in its environment): the exit codes of the binary
  // itself are the tests above.
  it('read-only commands need no passphrase: verify, log, items, show, checkpoint, key --public', async () => {
    const on = ['--archive', archive.dir];
    await custodyInExpect(0, ['verify', ...on]);
    await custodyInExpect(0, ['log', ...on]);
    const [first] = await listItems(archive);
    await custodyInExpect(0, ['show', first?.id ?? '?', ...on]);
    await custodyInExpect(0, ['checkpoint', ...on]);
    await custodyInExpect(0, ['key', '--public', ...on]);
  });

  it('key --public prints <name>+<8 hex>+<base64>, and checkpoints are signed by that key id', async () => {
    const r = await custodyInExpect(0, ['key', '--public', '--archive', archive.dir]);
    const vkey = r.stdout.trim();
    expect(vkey).toBe(archive.verifierKey);
    const m = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+=*)$/.exec(vkey);
    expect(m, vkey).not.toBeNull();
    const [, name, keyId, key] = m ?? [];
    expect(name).toBe(archive.origin);
    expect(Buffer.from(key ?? '', 'base64')).toHaveLength(33); // 0x01 ‖ Ed25519 public key

    const cp = checkpointBody(
      (await custodyInExpect(0, ['checkpoint', '--archive', archive.dir])).stdout,
    );
    expect(cp.signatures).toHaveLength(1);
    const sig = /^\u2014 (\S+) (\S+)$/.exec(cp.signatures[0] ?? '');
    expect(sig?.[1]).toBe(name);
    expect(
      Buffer.from(sig?.[2] ?? '', 'base64')
        .subarray(0, 4)
        .toString('hex'),
    ).toBe(keyId);
  });
});

// One writer at a time (the kernel lock on the ledger): test/e2e/ledger-lock.test.ts.

// `custody verify-export` as a person runs it: no archive, no database, no CUSTODY_ARCHIVE.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCustody } from '../support/cli.js';
import { buildExportBag, newKeys, zipBag } from '../support/export-bag.fixture.js';
import { makeTempDir } from '../support/tmp.js';

/** Runs from an empty directory with no archive configured anywhere. */
async function run(args: string[]) {
  const cwd = await makeTempDir('verify-export-cwd');
  return runCustody(['verify-export', ...args], { cwd, env: { CUSTODY_ARCHIVE: '', CUSTODY_DB_URL: '' } });
}

describe('custody verify-export', () => {
  it('exits 0 with a pinned key (file holding the verifier key line), every step ok', async () => {
    const tmp = await makeTempDir('verify-export');
    const bag = await buildExportBag(join(tmp, 'bag'));
    await writeFile(join(tmp, 'key.txt'), `${bag.verifierKey}\n`);
    const r = await run([bag.dir, '--key', join(tmp, 'key.txt')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/^ {2}ok {3}[1-5]\. /gm)).toHaveLength(5);
    expect(r.stdout).toContain('VERIFIED (key from: pinned key)');
  });

  it('exits 0 unpinned but says plainly where the key came from; --json is machine-readable', async () => {
    const tmp = await makeTempDir('verify-export');
    const bag = await buildExportBag(join(tmp, 'bag'));
    const r = await run([bag.dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('the verifier key was taken from the bag itself; pin it from an independent channel');
    const j = await run([bag.dir, '--json']);
    const out = JSON.parse(j.stdout) as { valid: boolean; key_source: string; findings: { code: string }[] };
    expect([out.valid, out.key_source, out.findings.map((f) => f.code)]).toEqual([true, 'bag', ['EXPORT_KEY_NOT_PINNED']]);
  });

  it('exits 1 for a forged bag under the pinned key, and for a tampered zip', async () => {
    const tmp = await makeTempDir('verify-export');
    const genuine = await buildExportBag(join(tmp, 'genuine'));
    const forged = await buildExportBag(join(tmp, 'forged'), { keys: newKeys(), origin: genuine.origin });
    await writeFile(join(tmp, 'key.pem'), genuine.pem);
    const r = await run([forged.dir, '--key', join(tmp, 'key.pem')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL 3\. /);
    expect(r.stdout).toContain('[EXPORT_CHECKPOINT_SIGNATURE_INVALID]');
    expect(r.stdout).toContain('NOT VERIFIED');
    await writeFile(join(genuine.dir, 'data/tables/items.csv'), 'edited\n');
    await zipBag(genuine.dir, join(tmp, 'bag.zip'));
    const z = await run([join(tmp, 'bag.zip'), '--trusted-checkpoint', await note(tmp, genuine.checkpointAt(genuine.tree.size))]);
    expect(z.code).toBe(1);
    expect(z.stdout).toContain('[BAGIT_DIGEST_MISMATCH]');
  });

  it('exits 2 for usage errors, with one clear line', async () => {
    const tmp = await makeTempDir('verify-export');
    await writeFile(join(tmp, 'bad-key'), 'not a key\n');
    for (const args of [[], [join(tmp, 'nope')], [tmp, '--key', join(tmp, 'missing')], [tmp, '--key', join(tmp, 'bad-key')], [tmp, '--frobnicate']]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')[0]).toMatch(/^custody: /);
    }
  });
});

async function note(dir: string, text: string): Promise<string> {
  const path = join(dir, 'trusted-checkpoint.txt');
  await writeFile(path, text);
  return path;
}

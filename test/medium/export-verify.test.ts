// The export verifier, verify.sh and verify_bag.py against a bag built by hand to LAYOUT.md
// (test/support/export-bag.fixture.ts), untouched and tampered with, one tampering per test.
import { spawnSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBagDir } from '../../src/verify/bagit/bag-dir.adapter.js';
import { parsePinnedKey, verifyExport, type ExportReport, type VerifyExportOptions } from '../../src/verify/index.js';
import { buildExportBag, DEFAULT_ITEMS, newKeys, resealBag, type BuildOptions, type FixtureBag } from '../support/export-bag.fixture.js';
import { makeTempDir } from '../support/tmp.js';

const hasTool = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const tools = hasTool('sha256sum', ['--version']) && hasTool('openssl', ['version']) && hasTool('python3', ['--version']);
const TOOLS_REASON = 'sha256sum, openssl or python3 is not installed: the standard-tools path is not exercised';

async function build(opts: BuildOptions = {}): Promise<FixtureBag> {
  return buildExportBag(await makeTempDir('export-bag'), opts);
}

async function verify(dir: string, options: VerifyExportOptions = {}): Promise<ExportReport> {
  const source = await openBagDir(dir);
  try {
    return await verifyExport(source, options);
  } finally {
    await source.close();
  }
}

const pinned = (bag: FixtureBag) => ({ pinnedKey: parsePinnedKey(bag.verifierKey) });
const errorCodes = (r: ExportReport) => r.findings.filter((f) => f.severity === 'error').map((f) => f.code);
const warningCodes = (r: ExportReport) => r.findings.filter((f) => f.severity === 'warning').map((f) => f.code);

/** verify.sh, run as a person would; `keyFile` is the pinned key. */
async function verifySh(bag: FixtureBag, key?: string): Promise<{ status: number | null; out: string }> {
  const args = [join(bag.dir, 'verify.sh')];
  if (key !== undefined) {
    const keyFile = join(await makeTempDir('pinned-key'), 'key');
    await writeFile(keyFile, key);
    args.push(keyFile);
  }
  const r = spawnSync('bash', args, { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

function verifyPy(bag: FixtureBag): { status: number | null; out: string } {
  const r = spawnSync('python3', [join(bag.dir, 'verify_bag.py'), bag.dir], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

/** Every verifier must reject the bag: ours (pinned), verify.sh (pinned) and verify_bag.py. */
async function expectAllReject(bag: FixtureBag, code: string, step: number): Promise<void> {
  const report = await verify(bag.dir, pinned(bag));
  expect(report.valid).toBe(false);
  expect(errorCodes(report)).toContain(code);
  expect(report.steps.find((s) => s.step === step)?.ok).toBe(false);
  if (!tools) return;
  const sh = await verifySh(bag, bag.verifierKey);
  expect(sh.status, sh.out).not.toBe(0);
  expect(sh.out).toContain('NOT VERIFIED');
  const py = verifyPy(bag);
  expect(py.status, py.out).not.toBe(0);
}

describe('an untouched export bag', () => {
  it('verifies with a pinned key (verifier-key line or PEM), all six steps ok, no warning', async () => {
    const bag = await build();
    for (const key of [bag.verifierKey, bag.pem]) {
      const report = await verify(bag.dir, { pinnedKey: parsePinnedKey(key) });
      expect(report.findings).toEqual([]);
      expect(report.steps.filter((s) => !s.ok)).toEqual([]);
      expect(report.steps.map((s) => s.step)).toEqual(expect.arrayContaining([1, 2, 3, 4, 5, 6, 7])); // 6: the ledger lines; 7: the process, re-derived from the ledger
      expect(report.keySource).toBe('pinned key');
    }
  });

  it('verifies unpinned, but says plainly that the key came from the bag', async () => {
    const bag = await build();
    const report = await verify(bag.dir);
    expect(report.valid).toBe(true);
    expect(warningCodes(report)).toEqual(['EXPORT_KEY_NOT_PINNED']);
    expect(report.findings[0]?.message).toMatch(/the verifier key was taken from the bag itself; pin it from an independent channel/);
    expect(report.keySource).toBe('bag');
  });

  it('accepts a trusted checkpoint of the same size, or an older one with custody/consistency.json', async () => {
    const bag = await build({ sinceSize: 3 });
    const same = await verify(bag.dir, { trustedCheckpoint: bag.checkpointAt(bag.tree.size) });
    expect([same.valid, same.keySource, warningCodes(same)]).toEqual([true, 'trusted checkpoint', []]);
    const older = await verify(bag.dir, { trustedCheckpoint: bag.checkpointAt(3) });
    expect([older.valid, older.keySource]).toEqual([true, 'trusted checkpoint']);
    const otherOld = await verify(bag.dir, { trustedCheckpoint: bag.checkpointAt(4) });
    expect(errorCodes(otherOld)).toEqual(['EXPORT_CONSISTENCY_INVALID']);
    const noProof = await build();
    expect(errorCodes(await verify(noProof.dir, { trustedCheckpoint: noProof.checkpointAt(3) }))).toEqual(['EXPORT_CHECKPOINT_MISMATCH']);
  });

  it('refuses a trusted checkpoint from another log key', async () => {
    const bag = await build();
    const other = await build({ keys: newKeys() });
    const report = await verify(bag.dir, { trustedCheckpoint: other.checkpointAt(other.tree.size) });
    expect(errorCodes(report)).toEqual(['EXPORT_TRUSTED_CHECKPOINT_INVALID']);
  });

  it('verifies a redacted export: the preview stands in, the original digest is still checked', async () => {
    const items = DEFAULT_ITEMS.map((it, i) => ({ ...it, redact: i === 1 }));
    const bag = await build({ items });
    expect((await verify(bag.dir, pinned(bag))).findings).toEqual([]);
    await writeFile(join(bag.dir, 'custody/withheld.json'), '[]\n');
    await resealBag(bag.dir);
    expect(errorCodes(await verify(bag.dir, pinned(bag)))).toEqual(['EXPORT_ENTRY_MISMATCH']);
  });

  it.skipIf(!tools)('passes verify.sh (pinned and unpinned) and verify_bag.py', async () => {
    const bag = await build();
    const sh = await verifySh(bag, bag.verifierKey);
    expect(sh.status, sh.out).toBe(0);
    expect(sh.out).toContain('Signature Verified Successfully');
    expect(sh.out).toContain('VERIFIED against the pinned key');
    const pem = await verifySh(bag, bag.pem);
    expect(pem.status, pem.out).toBe(0);
    const unpinned = await verifySh(bag);
    expect(unpinned.status, unpinned.out).toBe(0);
    expect(unpinned.out).toMatch(/verifier key was taken from the bag itself; pin it/);
    const py = verifyPy(bag);
    expect(py.status, py.out).toBe(0);
    expect(py.out).toContain(`passed for ${DEFAULT_ITEMS.length} items`);
  });
  if (!tools) it.skip(`verify.sh and verify_bag.py (${TOOLS_REASON})`, () => undefined);
});

describe('a tampered export bag is caught', () => {
  it('a changed payload byte', async () => {
    const bag = await build();
    const path = join(bag.dir, bag.items[0]?.bagPath ?? '');
    const bytes = await readFile(path);
    bytes[5] = (bytes[5] ?? 0) ^ 1;
    await writeFile(path, bytes);
    await expectAllReject(bag, 'BAGIT_DIGEST_MISMATCH', 2);
    expect(errorCodes(await verify(bag.dir, pinned(bag)))).toContain('EXPORT_ENTRY_MISMATCH');
  });

  it('a changed payload byte with the manifests recomputed (caught by the ledger entry)', async () => {
    const bag = await build();
    await writeFile(join(bag.dir, bag.items[1]?.bagPath ?? ''), 'a different statement\n');
    await resealBag(bag.dir);
    await expectAllReject(bag, 'EXPORT_ENTRY_MISMATCH', 5);
  });

  it('a removed file', async () => {
    const bag = await build();
    await rm(join(bag.dir, bag.items[2]?.bagPath ?? ''));
    await expectAllReject(bag, 'BAGIT_FILE_MISSING', 1);
  });

  it('an added file', async () => {
    const bag = await build();
    await writeFile(join(bag.dir, 'data/items/01HZX3K7Q8R9S0T1V2W3X4Y5ZZ-planted.jpg'), 'planted');
    await expectAllReject(bag, 'BAGIT_FILE_UNLISTED', 1);
  });

  it('an added file with the manifests recomputed (not the file of any item)', async () => {
    const bag = await build();
    await writeFile(join(bag.dir, 'data/items/01HZX3K7Q8R9S0T1V2W3X4Y5ZZ-planted.jpg'), 'planted');
    await resealBag(bag.dir);
    await expectAllReject(bag, 'EXPORT_ENTRY_MISMATCH', 5);
  });

  it('a forged bag signed with another key: passes unpinned with the warning, fails pinned', async () => {
    const genuine = await build();
    const forged = await build({ keys: newKeys(), origin: genuine.origin });
    const unpinned = await verify(forged.dir);
    expect(unpinned.valid).toBe(true);
    expect(warningCodes(unpinned)).toEqual(['EXPORT_KEY_NOT_PINNED']);
    const report = await verify(forged.dir, pinned(genuine));
    expect(report.valid).toBe(false);
    expect(errorCodes(report)).toEqual(['EXPORT_KEY_MISMATCH', 'EXPORT_CHECKPOINT_SIGNATURE_INVALID', 'EXPORT_CHECKPOINT_SIGNATURE_INVALID']);
    expect(report.steps.filter((s) => !s.ok).map((s) => s.step)).toEqual([3]);
    expect(errorCodes(await verify(forged.dir, { pinnedKey: parsePinnedKey(genuine.pem) }))).toContain('EXPORT_CHECKPOINT_SIGNATURE_INVALID');
    if (!tools) return;
    expect((await verifySh(forged)).status).toBe(0); // unpinned: consistent, and it says so
    const sh = await verifySh(forged, genuine.verifierKey);
    expect(sh.status, sh.out).not.toBe(0);
    expect(sh.out).toContain('NOT the pinned key');
    expect((await verifySh(forged, genuine.pem)).status).not.toBe(0);
    expect(verifyPy(forged).status).toBe(0); // verify_bag.py does not pin keys: verify.sh and openssl do
  });

  it('a proof for the wrong item (re-pointed at another item\'s entry, manifests recomputed)', async () => {
    const bag = await build();
    const [a, b] = [bag.items[0], bag.items[1]];
    const proofB = JSON.parse(await readFile(join(bag.dir, `custody/proofs/${b?.itemId}.json`), 'utf8')) as Record<string, unknown>;
    await writeFile(join(bag.dir, `custody/proofs/${a?.itemId}.json`), `${JSON.stringify({ ...proofB, item_id: a?.itemId }, null, 2)}\n`);
    await resealBag(bag.dir);
    await expectAllReject(bag, 'EXPORT_ENTRY_MISMATCH', 5);
  });

  it('a proof that does not lead to the root', async () => {
    const bag = await build();
    const path = join(bag.dir, `custody/proofs/${bag.items[0]?.itemId}.json`);
    const proof = JSON.parse(await readFile(path, 'utf8')) as { proof: string[] };
    proof.proof[0] = '00'.repeat(32);
    await writeFile(path, JSON.stringify(proof));
    await resealBag(bag.dir);
    await expectAllReject(bag, 'EXPORT_PROOF_INVALID', 4);
  });

  it('an edited table (data/tables/items.csv)', async () => {
    const bag = await build();
    const path = join(bag.dir, 'data/tables/items.csv');
    await writeFile(path, (await readFile(path, 'utf8')).replace('KESTREL', 'HERON'));
    await expectAllReject(bag, 'BAGIT_DIGEST_MISMATCH', 2);
  });

  it('an edited checkpoint.body (what openssl would check) against the signed note', async () => {
    const bag = await build();
    await writeFile(join(bag.dir, 'custody/checkpoint.body'), `${bag.origin}\n1\n${'A'.repeat(43)}=\n`);
    await resealBag(bag.dir);
    await expectAllReject(bag, 'EXPORT_CHECKPOINT_MISMATCH', 3);
  });
});

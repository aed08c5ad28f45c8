// Bags read from a .zip (yauzl, bag-zip.adapter.ts): the same verdicts as from a directory.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBagZip } from '../../src/verify/bagit/bag-zip.adapter.js';
import { parsePinnedKey, validateBag, verifyExport } from '../../src/verify/index.js';
import { buildExportBag, zipBag } from '../support/export-bag.fixture.js';
import { buildZip } from '../support/make-zips.js';
import { makeTempDir } from '../support/tmp.js';

async function zipped(edit?: (dir: string) => Promise<void>) {
  const tmp = await makeTempDir('bag-zip');
  const bag = await buildExportBag(join(tmp, 'bag'));
  await edit?.(bag.dir);
  const zipPath = join(tmp, 'bag.zip');
  await zipBag(bag.dir, zipPath);
  return { bag, zipPath };
}

describe('a bag in a zip', () => {
  it('verifies exactly as the directory does', async () => {
    const { bag, zipPath } = await zipped();
    const source = await openBagZip(zipPath);
    const report = await verifyExport(source, { pinnedKey: parsePinnedKey(bag.verifierKey) });
    await source.close();
    expect(report.findings).toEqual([]);
    expect(report.steps.every((s) => s.ok)).toBe(true);
  });

  it('catches a changed file inside the zip', async () => {
    const { zipPath } = await zipped(async (dir) => writeFile(join(dir, 'data/tables/items.csv'), 'edited\n'));
    const source = await openBagZip(zipPath);
    const result = await validateBag(source);
    await source.close();
    expect(result.errors.map((e) => e.code)).toContain('BAGIT_DIGEST_MISMATCH');
  });

  it('refuses a zip without exactly one top-level directory, and one with a name twice', async () => {
    const tmp = await makeTempDir('bag-zip-bad');
    const two = join(tmp, 'two.zip');
    await writeFile(two, buildZip([{ name: 'a/bagit.txt', data: Buffer.from('x') }, { name: 'b/bagit.txt', data: Buffer.from('x') }]));
    await expect(openBagZip(two)).rejects.toThrow(/one top-level directory/);
    const flat = join(tmp, 'flat.zip');
    await writeFile(flat, buildZip([{ name: 'bagit.txt', data: Buffer.from('x') }]));
    await expect(openBagZip(flat)).rejects.toThrow(/one top-level directory/);
    const dup = join(tmp, 'dup.zip');
    await writeFile(dup, buildZip([{ name: 'a/bagit.txt', data: Buffer.from('x') }, { name: 'a/bagit.txt', data: Buffer.from('y') }]));
    await expect(openBagZip(dup)).rejects.toThrow(/twice/);
  });

  it('refuses members escaping the zip (yauzl strictFileNames)', async () => {
    const tmp = await makeTempDir('bag-zip-slip');
    const slip = join(tmp, 'slip.zip');
    await writeFile(slip, buildZip([{ name: 'a/bagit.txt', data: Buffer.from('x') }, { name: 'a/../../etc/passwd', data: Buffer.from('x') }]));
    await expect(openBagZip(slip)).rejects.toThrow(/invalid relative path/);
  });
});

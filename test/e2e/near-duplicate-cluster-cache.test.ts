// The cached clusters (issue 14, "Scale"): `show` reads one object's cluster from the clusters
// cached in the index, keyed by the analyses' ledger size, without reading the whole archive's analyses.
// The index is editable by anyone with the folder, so a planted cluster or a forged distance
// there must not be shown: each is refused or recomputed.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ArchiveIndexRepository } from '../../src/db/archive-index.repository.js';
import { custodyInExpect, sha256Hex, withIndexDb, type TestArchive } from '../support/archive-fixtures.js';
import { cut, scene as cropScene, scenePixels, type Box } from '../support/crop-scenes.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

const W = 480;
const H = 360;

async function scene(seed: string, brightness = 1): Promise<Buffer> {
  return sharp(await scenePixels(seed, W, H), { raw: { width: W, height: H, channels: 3 } })
    .modulate({ brightness })
    .jpeg({ quality: brightness === 1 ? 90 : 70 })
    .toBuffer();
}

interface ShowJson {
  cluster: { id: string; objects: string[]; items: string[]; max_distance: number } | null;
}

const ROW = "SELECT value FROM meta WHERE key = 'near_duplicates_clusters'";
const SET = "UPDATE meta SET value = ? WHERE key = 'near_duplicates_clusters'";

describeDatabases('near-duplicates: the cached clusters that show reads', (db) => {
  let archive: TestArchive;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  const sha = new Map<string, string>();
  const run = (code: number, ...args: string[]) =>
    custodyInExpect(code, [...args, '--archive', archive.dir], archive.env);
  const show = async (name: string): Promise<ShowJson> =>
    JSON.parse((await run(0, 'show', sha.get(name)!, '--json')).stdout) as ShowJson;
  const cached = async (): Promise<string> =>
    (await withIndexDb(archive, (sql) => sql.rows<{ value: string }>(ROW)))[0]?.value ?? '';
  const plant = (text: string): Promise<void> => withIndexDb(archive, (sql) => sql.exec(SET, [text]));

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    const base = await makeTempDir(`near-dup-clusters-${db.kind}`);
    const env: Record<string, string> = made.url === null ? {} : { DATABASE_URL: made.url };
    archive = { dir: join(base, 'archive'), origin: '', verifierKey: '', env };
    await custodyInExpect(0, ['init', '--archive', archive.dir], env);
    const src = join(base, 'src');
    await mkdir(src, { recursive: true });
    for (const [name, bytes] of [
      ['original.jpg', await scene('scene-a')],
      ['brighter.jpg', await scene('scene-a', 1.15)],
      ['other.jpg', await scene('scene-b')],
    ] as const) {
      sha.set(name, sha256Hex(bytes));
      await writeFile(join(src, name), bytes);
    }
    await run(0, 'ingest', src, '--source', 'LARK', '--new-source', '--analyze');
  });

  afterAll(() => cleanup());

  it("caches the clusters keyed by the analyses' ledger size, and show reads the cluster from them", async () => {
    const first = await show('original.jpg');
    const pair = [sha.get('original.jpg')!, sha.get('brighter.jpg')!].sort();
    expect(first.cluster?.objects).toEqual(pair);
    const text = await cached();
    expect(text.split('\n')[0]).toMatch(/^near-dup-clusters\/3 \["near-dup\/\d+",null,\d+\]$/);
    // The grey step's coverage: the three analysed images are each alone or in a pair.
    expect(text.split('\n')[1]).toBe('grey 3 5000');
    expect(text).toContain(`${first.cluster?.max_distance} ${pair.join(' ')}\n`);
    expect((await show('brighter.jpg')).cluster).toEqual(first.cluster);
    expect((await show('other.jpg')).cluster).toBeNull();
  });

  it('a planted cluster joining an unrelated object is refused, and the clusters are recomputed', async () => {
    const before = await cached();
    const three = [sha.get('original.jpg')!, sha.get('brighter.jpg')!, sha.get('other.jpg')!].sort();
    const [head, grey] = before.split('\n');
    await plant(`${head}\n${grey}\n0 ${three.join(' ')}\n`);
    expect((await show('other.jpg')).cluster).toBeNull();
    expect((await show('original.jpg')).cluster?.objects).not.toContain(sha.get('other.jpg'));
    expect(await cached()).toBe(before);
  });

  it('a forged largest distance is not shown: it is recomputed from the hashes', async () => {
    const before = await cached();
    const real = (await show('original.jpg')).cluster?.max_distance;
    expect(real).toBeGreaterThan(0);
    await plant(before.replace(/\n\d+ /, '\n0 '));
    expect((await show('original.jpg')).cluster?.max_distance).toBe(real);
  });
});

// Two crops of one photo cut from different sides (neither containing the other) are linked as an
// 'overlap' through their original, whatever the distance of their own hashes. The cached cluster
// holding them must still pass its check: every member is linked to the original by a pair the
// search could have found, so the overlap needs no hash path of its own.
describe('near-duplicates: a cached cluster holding an overlap', () => {
  const A: Box = { left: 0.02, top: 0.1, right: 0.88, bottom: 0.97 };
  const B: Box = { left: 0.12, top: 0.01, right: 0.97, bottom: 0.9 };
  let archive: TestArchive;
  const sha = new Map<string, string>();
  const run = (code: number, ...args: string[]) =>
    custodyInExpect(code, [...args, '--archive', archive.dir], archive.env);
  const show = async (name: string): Promise<ShowJson> =>
    JSON.parse((await run(0, 'show', sha.get(name)!, '--json')).stdout) as ShowJson;

  beforeAll(async () => {
    const base = await makeTempDir('near-dup-clusters-overlap');
    archive = { dir: join(base, 'archive'), origin: '', verifierKey: '', env: {} };
    await run(0, 'init');
    const original = await cropScene('scene-overlap');
    const src = join(base, 'src');
    await mkdir(src, { recursive: true });
    for (const [name, bytes] of [
      ['original.jpg', original],
      ['a.jpg', await cut(original, A).jpeg({ quality: 85 }).toBuffer()],
      ['b.jpg', await cut(original, B).jpeg({ quality: 85 }).toBuffer()],
    ] as const) {
      sha.set(name, sha256Hex(bytes));
      await writeFile(join(src, name), bytes);
    }
    await run(0, 'ingest', src, '--source', 'LARK', '--new-source', '--analyze');
  });

  afterEach(() => vi.restoreAllMocks());

  it('is read from the cache: its members pass the check, and no analysis of the archive is read', async () => {
    const similar = JSON.parse(
      (await run(0, 'similar', sha.get('a.jpg')!, '--json')).stdout,
    ) as { matches: { sha256: string; kind: string }[] };
    expect(similar.matches.find((m) => m.sha256 === sha.get('b.jpg'))?.kind).toBe('overlap');
    const all = [...sha.values()].sort();
    expect((await show('a.jpg')).cluster?.objects).toEqual(all); // computed, and cached
    const listAnalyses = vi.spyOn(ArchiveIndexRepository.prototype, 'listAnalyses');
    for (const name of ['a.jpg', 'b.jpg', 'original.jpg'])
      expect((await show(name)).cluster?.objects).toEqual(all);
    expect(listAnalyses).not.toHaveBeenCalled();
  });
});

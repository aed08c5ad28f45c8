// Near-duplicates through the CLI (issue 14): an uneven crop is clustered with its original,
// with the crop box and the likely original recorded; the pairs are cached in the index, the
// cache follows new analyses, and a tampered cache is not trusted.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  custodyInExpect,
  sha256Hex,
  withIndexDb,
  type TestArchive,
} from '../support/archive-fixtures.js';
import { BOX, cropOf, scene } from '../support/crop-scenes.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

interface SimilarJson {
  sha256: string;
  cluster: string | null;
  matches: {
    sha256: string;
    kind: string;
    crop?: { original: string; box: typeof BOX; transform: string };
  }[];
  grey_step: { ran: boolean; objects_needing_it: number; limit: number; needed_by_this_object: boolean };
}

interface ShowJson {
  cluster: { id: string; objects: string[] } | null;
  grey_step: SimilarJson['grey_step'] | null;
}

describeDatabases('near-duplicates: uneven crops and the cached pairs', (db) => {
  let archive: TestArchive;
  let base: string;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  const bytes = new Map<string, Buffer>();
  const run = (code: number, ...args: string[]) =>
    custodyInExpect(code, [...args, '--archive', archive.dir], archive.env);
  const similar = async (name: string): Promise<SimilarJson> =>
    JSON.parse((await run(0, 'similar', sha256Hex(bytes.get(name)!), '--json')).stdout) as SimilarJson;
  const show = async (name: string): Promise<ShowJson> =>
    JSON.parse((await run(0, 'show', sha256Hex(bytes.get(name)!), '--json')).stdout) as ShowJson;

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    base = await makeTempDir(`near-dup-crops-${db.kind}`);
    const env: Record<string, string> = made.url === null ? {} : { DATABASE_URL: made.url };
    archive = { dir: join(base, 'archive'), origin: '', verifierKey: '', env };
    await custodyInExpect(0, ['init', '--archive', archive.dir], env);
    const original = await scene('scene-a');
    bytes.set('original.jpg', original);
    bytes.set('cropped.jpg', await cropOf(original));
    bytes.set('other.jpg', await scene('scene-b'));
    // Two more photographs from the same camera, so that its usual size is known.
    bytes.set('third.jpg', await scene('scene-c'));
    bytes.set('fourth.jpg', await scene('scene-d'));
    const src = join(base, 'src');
    await mkdir(src, { recursive: true });
    for (const [name, b] of bytes) await writeFile(join(src, name), b);
    await run(0, 'ingest', src, '--source', 'LARK', '--new-source', '--analyze');
  });

  afterAll(() => cleanup());

  it('clusters an uneven crop with its original, naming the original and the box within 2 %', async () => {
    const s = await similar("cropped.jpg");
    const original = sha256Hex(bytes.get('original.jpg')!);
    const m = s.matches.find((x) => x.sha256 === original);
    expect(m?.kind).toBe('crop');
    expect(m?.crop?.original).toBe(original);
    expect(m?.crop?.transform).toBe('original');
    for (const edge of ['left', 'top', 'right', 'bottom'] as const)
      expect(Math.abs((m?.crop?.box[edge] ?? -1) - BOX[edge]), edge).toBeLessThanOrEqual(0.02);
    expect(s.matches.map((x) => x.sha256)).not.toContain(sha256Hex(bytes.get('other.jpg')!));
    // Every one of the five is alone or in a pair, so each needed the grey step, and it ran.
    expect(s.grey_step).toEqual({ ran: true, objects_needing_it: 5, limit: 5000, needed_by_this_object: true });
    const r = await run(0, 'clusters');
    expect(r.stderr).not.toContain('grey-descriptor step');
    // As the report cites it: the same answer from the ledger at a signed checkpoint.
    const size = (JSON.parse((await run(0, 'checkpoint', '--json')).stdout) as { size: number }).size;
    const at = JSON.parse(
      (await run(0, 'similar', sha256Hex(bytes.get('cropped.jpg')!), '--at', String(size), '--json')).stdout,
    ) as SimilarJson;
    expect(at.grey_step).toEqual(s.grey_step);
    expect(at.matches.map((x) => [x.sha256, x.kind])).toEqual(s.matches.map((x) => [x.sha256, x.kind]));
  });

  it('DIMENSIONS_UNLIKE_CAMERA names the likely original of a crop', async () => {
    const r = await run(0, 'authenticity', sha256Hex(bytes.get('cropped.jpg')!), '--json');
    const out = JSON.parse(r.stdout) as { indicators: { code: string; evidence: Record<string, unknown> }[] };
    const dims = out.indicators.find((i) => i.code === 'DIMENSIONS_UNLIKE_CAMERA');
    expect(dims?.evidence.likelyOriginal).toBe(sha256Hex(bytes.get('original.jpg')!));
  });

  it('caches the pairs in the index, keyed by the analyses, and show reads the same cluster', async () => {
    const rows = await withIndexDb(archive, (sql) =>
      sql.rows<{ value: string }>("SELECT value FROM meta WHERE key = 'near_duplicates_cache'"),
    );
    expect(rows).toHaveLength(1);
    const cache = JSON.parse(rows[0]!.value) as { key: { analyses: number }; pairs: unknown[] };
    expect(cache.key.analyses).toBe(5);
    expect(cache.pairs).toHaveLength(1);
    const c = await show('original.jpg');
    expect(c.cluster?.objects.sort()).toEqual(
      [sha256Hex(bytes.get('original.jpg')!), sha256Hex(bytes.get('cropped.jpg')!)].sort(),
    );
  });

  it('show gives the grey step as similar does, read from the cached clusters, not the pairs', async () => {
    for (const name of bytes.keys()) expect((await show(name)).grey_step, name).toEqual((await similar(name)).grey_step);
    const clustersRow = async () =>
      (
        await withIndexDb(archive, (sql) =>
          sql.rows<{ value: string }>("SELECT value FROM meta WHERE key = 'near_duplicates_clusters'"),
        )
      )[0]?.value ?? '';
    const setClusters = (value: string) =>
      withIndexDb(archive, (sql) => sql.exec("UPDATE meta SET value = ? WHERE key = 'near_duplicates_clusters'", [value]));
    const text = await clustersRow();
    expect(text.split('\n')[1]).toBe('grey 5 5000');
    // The coverage line is what show reads (trusted for display as far as the index is, like the
    // clusters): edited to say the step could not run, show says so, and its note follows.
    await setClusters(text.replace('\ngrey 5 5000\n', '\ngrey 6000 5000\n'));
    const cropped = sha256Hex(bytes.get('cropped.jpg')!);
    const r = await run(0, 'show', cropped, '--json');
    expect((JSON.parse(r.stdout) as ShowJson).grey_step).toEqual({
      ran: false,
      objects_needing_it: 6000,
      limit: 5000,
      needed_by_this_object: true,
    });
    expect(r.stderr).toContain(
      'custody: note: this image is linked to at most two others, and the grey-descriptor step did not run (6,000 images needed it, more than the 5,000 it takes)',
    );
    // A line that does not give the search's own limit is not read: the clusters are computed
    // again, and the cache rewritten with the true coverage.
    await setClusters(text.replace('\ngrey 5 5000\n', '\ngrey 6000 9999\n'));
    const again = await run(0, 'show', cropped, '--json');
    expect((JSON.parse(again.stdout) as ShowJson).grey_step).toEqual((await similar('cropped.jpg')).grey_step);
    expect(again.stderr).not.toContain('grey-descriptor');
    expect(await clustersRow()).toBe(text);
  });

  it('a tampered cache is not trusted: a planted pair is refused and the pairs recomputed', async () => {
    const other = sha256Hex(bytes.get('other.jpg')!);
    const original = sha256Hex(bytes.get('original.jpg')!);
    const [a, b] = [other, original].sort();
    await withIndexDb(archive, async (sql) => {
      const [row] = await sql.rows<{ value: string }>(
        "SELECT value FROM meta WHERE key = 'near_duplicates_cache'",
      );
      const cache = JSON.parse(row!.value) as { pairs: unknown[] };
      cache.pairs.push({ a, b, distance: 3, kind: 'pdq' });
      await sql.exec("UPDATE meta SET value = ? WHERE key = 'near_duplicates_cache'", [
        JSON.stringify(cache),
      ]);
    });
    const s = await show('other.jpg');
    expect(s.cluster).toBeNull();
    // show reads the cached clusters; the pairs are read (and the planted one refused) by similar.
    expect((await similar('other.jpg')).matches.map((m) => m.sha256)).not.toContain(original);
    const [row] = await withIndexDb(archive, (sql) =>
      sql.rows<{ value: string }>("SELECT value FROM meta WHERE key = 'near_duplicates_cache'"),
    );
    expect((JSON.parse(row!.value) as { pairs: unknown[] }).pairs).toHaveLength(1);
  });

  it('a new analysis invalidates the cache: the new crop joins the cluster', async () => {
    const second = await sharp(await cropOf(bytes.get('original.jpg')!)).rotate(90).jpeg({ quality: 85 }).toBuffer();
    bytes.set('second.jpg', second);
    const src = join(base, 'src2');
    await mkdir(src, { recursive: true });
    await writeFile(join(src, 'second.jpg'), second);
    await run(0, 'ingest', src, '--source', 'LARK', '--analyze');
    const c = await show('original.jpg');
    expect(c.cluster?.objects).toContain(sha256Hex(second));
    const [row] = await withIndexDb(archive, (sql) =>
      sql.rows<{ value: string }>("SELECT value FROM meta WHERE key = 'near_duplicates_cache'"),
    );
    expect((JSON.parse(row!.value) as { key: { analyses: number } }).key.analyses).toBe(6);
  });

  it('verify passes with the cache in the index; after a rebuild the clusters are the same', async () => {
    await run(0, 'verify');
    const before = await show('original.jpg');
    await run(0, 'rebuild');
    expect((await show('original.jpg')).cluster?.objects).toEqual(before.cluster?.objects);
    await run(0, 'verify');
  });
});

// The likely originals of crops, cached beside the clusters (issue 14, "Scale"): `show` and the
// item page judge one object's indicators reading only that object's line, after aligning the two
// objects' grey rasters again. The index is editable by anyone with the folder, so a planted or
// edited line must not be shown: it is refused and the likely original is read from the pairs.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  custodyInExpect,
  sha256Hex,
  withIndexDb,
  type TestArchive,
} from '../support/archive-fixtures.js';
import { cropOf, scene } from '../support/crop-scenes.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

interface Indicators {
  indicators: { code: string; evidence: Record<string, unknown> }[] | null;
}

const CROPS = "SELECT value FROM meta WHERE key = 'near_duplicates_crops'";
const PAIRS = "SELECT value FROM meta WHERE key = 'near_duplicates_cache'";

describeDatabases('near-duplicates: the cached crop originals that show reads', (db) => {
  let archive: TestArchive;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  const sha = new Map<string, string>();
  const run = (code: number, ...args: string[]) =>
    custodyInExpect(code, [...args, '--archive', archive.dir], archive.env);
  const showText = async (name: string): Promise<string> =>
    (await run(0, 'show', sha.get(name)!, '--json')).stdout;
  const likelyOriginal = async (name: string): Promise<Record<string, unknown> | undefined> => {
    const out = JSON.parse(await showText(name)) as Indicators;
    return out.indicators?.find((i) => i.code === 'DIMENSIONS_UNLIKE_CAMERA')?.evidence;
  };
  const row = async (query: string): Promise<string | undefined> =>
    (await withIndexDb(archive, (sql) => sql.rows<{ value: string }>(query)))[0]?.value;
  const plantCrops = (text: string): Promise<void> =>
    withIndexDb(archive, (sql) =>
      sql.exec("UPDATE meta SET value = ? WHERE key = 'near_duplicates_crops'", [text]),
    );
  const dropRows = (...keys: string[]): Promise<void> =>
    withIndexDb(archive, async (sql) => {
      for (const k of keys) await sql.exec('DELETE FROM meta WHERE key = ?', [k]);
    });

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    const base = await makeTempDir(`near-dup-crop-origins-${db.kind}`);
    const env: Record<string, string> = made.url === null ? {} : { DATABASE_URL: made.url };
    archive = { dir: join(base, 'archive'), origin: '', verifierKey: '', env };
    await custodyInExpect(0, ['init', '--archive', archive.dir], env);
    const original = await scene('scene-a');
    const files: [string, Buffer][] = [
      ['original.jpg', original],
      ['cropped.jpg', await cropOf(original)],
      // Three more photographs from the same camera, so that its usual size is known.
      ['other.jpg', await scene('scene-b')],
      ['third.jpg', await scene('scene-c')],
      ['fourth.jpg', await scene('scene-d')],
    ];
    const src = join(base, 'src');
    await mkdir(src, { recursive: true });
    for (const [name, b] of files) {
      sha.set(name, sha256Hex(b));
      await writeFile(join(src, name), b);
    }
    await run(0, 'ingest', src, '--source', 'LARK', '--new-source', '--analyze');
  });

  afterAll(() => cleanup());

  it('caches the crop originals beside the clusters, and show names the likely original', async () => {
    const evidence = await likelyOriginal('cropped.jpg');
    expect(evidence?.likelyOriginal).toBe(sha.get('original.jpg'));
    const text = (await row(CROPS)) ?? '';
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^near-dup-crops\/2 \["near-dup\/\d+",null,\d+\]$/);
    expect(lines[1]).toMatch(new RegExp(`^${sha.get('cropped.jpg')!} ${sha.get('original.jpg')!} original `));
    expect(lines[1]?.split(' ').slice(3).join(',')).toBe(evidence?.likelyOriginalBox);
    expect(lines).toHaveLength(3); // the key, one crop, the final newline
  });

  it('show reads the likely original from its checked line, not from the pairs', async () => {
    await likelyOriginal('cropped.jpg'); // the clusters and crop originals are current
    await dropRows('near_duplicates_cache');
    expect((await likelyOriginal('cropped.jpg'))?.likelyOriginal).toBe(sha.get('original.jpg'));
    expect(await row(PAIRS)).toBeUndefined(); // nothing fell back to the pairs
  });

  it('show --json is the same with the cached clusters and crop originals and without them', async () => {
    const names = [...sha.keys()];
    await showText('original.jpg');
    const cached = [];
    for (const n of names) cached.push(await showText(n));
    await dropRows('near_duplicates_cache', 'near_duplicates_clusters', 'near_duplicates_crops');
    const computed = [];
    for (const n of names) {
      await dropRows('near_duplicates_cache', 'near_duplicates_clusters', 'near_duplicates_crops');
      computed.push(await showText(n));
    }
    expect(computed).toEqual(cached);
    expect(cached.join('')).toContain(sha.get('original.jpg'));
  });

  it('a planted line naming an unrelated object as the original is refused', async () => {
    await showText('cropped.jpg');
    const before = (await row(CROPS)) ?? '';
    await plantCrops(before.replace(` ${sha.get('original.jpg')!} `, ` ${sha.get('other.jpg')!} `));
    expect((await likelyOriginal('cropped.jpg'))?.likelyOriginal).toBe(sha.get('original.jpg'));
    expect(await row(CROPS)).toBe(before); // recomputed from the pairs and cached again
  });

  it('an edited crop box is refused: the box shown is the one the alignment finds', async () => {
    const box = (await likelyOriginal('cropped.jpg'))?.likelyOriginalBox;
    const before = (await row(CROPS)) ?? '';
    await plantCrops(before.replace(/ original [0-9.e-]+ /, ' original 0 '));
    expect(await row(CROPS)).not.toBe(before);
    expect((await likelyOriginal('cropped.jpg'))?.likelyOriginalBox).toBe(box);
    expect(await row(CROPS)).toBe(before);
  });

  it('a line planted for a photograph that is no crop is refused', async () => {
    await showText('cropped.jpg');
    const before = (await row(CROPS)) ?? '';
    const [a, b] = [sha.get('third.jpg')!, sha.get('fourth.jpg')!];
    await plantCrops(`${before}${a} ${b} original 0.1 0.1 0.9 0.9\n`);
    const out = JSON.parse(await showText('third.jpg')) as Indicators;
    expect(JSON.stringify(out.indicators)).not.toContain(b);
    expect(await row(CROPS)).toBe(before);
  });
});

// The objects that raise an indicator, cached in the index (issue 14, "Scale"): `show` judges one
// object without reading the whole collection when the cache is current and does not name it. The
// index is editable by anyone with the folder, so a planted or edited line must never make `show`
// state an indicator the collection does not raise: an object a line names is judged from the
// collection's facts, and a stale or malformed cache is computed again.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { ArchiveIndexRepository } from '../../src/db/archive-index.repository.js';
import {
  custodyInExpect,
  sha256Hex,
  withIndexDb,
  type TestArchive,
} from '../support/archive-fixtures.js';
import { cropOf, scene } from '../support/crop-scenes.js';
import { COLLECTION_READS, editedScene } from '../support/analysis-caches.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

interface ShowJson {
  indicators: { code: string; explanation: string; evidence: Record<string, unknown> }[] | null;
}

const ROW = "SELECT value FROM meta WHERE key = 'indicators_raised'";
const SET = "UPDATE meta SET value = ? WHERE key = 'indicators_raised'";
const DROP = "DELETE FROM meta WHERE key = 'indicators_raised'";
describeDatabases('indicators: the cached raised set that show reads', (db) => {
  let archive: TestArchive;
  let base = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  const sha = new Map<string, string>();
  const run = (code: number, ...args: string[]) =>
    custodyInExpect(code, [...args, '--archive', archive.dir], archive.env);
  const showText = async (name: string): Promise<string> =>
    (await run(0, 'show', sha.get(name)!, '--json')).stdout;
  const codes = async (name: string): Promise<string[] | undefined> =>
    (JSON.parse(await showText(name)) as ShowJson).indicators?.map((i) => i.code);
  const cached = async (): Promise<string> =>
    (await withIndexDb(archive, (sql) => sql.rows<{ value: string }>(ROW)))[0]?.value ?? '';
  const plant = (text: string): Promise<void> =>
    withIndexDb(archive, (sql) => sql.exec(SET, [text]));
  const drop = (): Promise<void> => withIndexDb(archive, (sql) => sql.exec(DROP));
  const body = (text: string): string => text.slice(text.indexOf('\n') + 1);
  const addFiles = async (dir: string, files: [string, Buffer][]): Promise<void> => {
    const src = join(base, dir);
    await mkdir(src, { recursive: true });
    for (const [name, b] of files) {
      sha.set(name, sha256Hex(b));
      await writeFile(join(src, name), b);
    }
    await run(
      0,
      'ingest',
      src,
      '--source',
      'LARK',
      ...(dir === 'src' ? ['--new-source'] : []),
      '--analyze',
    );
  };

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    base = await makeTempDir(`indicator-cache-${db.kind}`);
    const env: Record<string, string> = made.url === null ? {} : { DATABASE_URL: made.url };
    archive = { dir: join(base, 'archive'), origin: '', verifierKey: '', env };
    await custodyInExpect(0, ['init', '--archive', archive.dir], env);
    const original = await scene('scene-a');
    await addFiles('src', [
      ['original.jpg', original],
      ['cropped.jpg', await cropOf(original)], // DIMENSIONS_UNLIKE_CAMERA, naming its original
      ['edited.jpg', await editedScene('scene-e')], // EDITING_SOFTWARE
      ['other.jpg', await scene('scene-b')],
      ['third.jpg', await scene('scene-c')],
      ['fourth.jpg', await scene('scene-d')],
    ]);
  });

  afterEach(() => vi.restoreAllMocks());
  afterAll(() => cleanup());

  it("caches the objects that raise an indicator, keyed by the analyses' ledger size, and show reads it", async () => {
    expect(await codes('cropped.jpg')).toContain('DIMENSIONS_UNLIKE_CAMERA');
    const text = await cached();
    expect(text.split('\n')[0]).toMatch(
      /^indicators-raised\/2 \["indicators\/1 [^"]+",\d+,"[0-9T:.Z-]+"\]$/,
    );
    expect(text).toContain(`\n${sha.get('cropped.jpg')!} `);
    expect(text).toMatch(new RegExp(`\\n${sha.get('edited.jpg')!} ([A-Z_]+,)*EDITING_SOFTWARE`));
    expect(text).not.toContain(sha.get('other.jpg')!);
    const reads = COLLECTION_READS.map((m) => vi.spyOn(ArchiveIndexRepository.prototype, m));
    expect(await codes('other.jpg')).toEqual([]);
    for (const r of reads) expect(r).not.toHaveBeenCalled();
    expect(await cached()).toBe(text);
  });

  it("an object whose line names only camera-model indicators is judged from its model's images alone", async () => {
    await showText('other.jpg');
    expect(await cached()).toContain(`\n${sha.get('edited.jpg')!} EDITING_SOFTWARE\n`);
    const reads = COLLECTION_READS.map((m) => vi.spyOn(ArchiveIndexRepository.prototype, m));
    const scoped = vi.spyOn(ArchiveIndexRepository.prototype, 'indicatorFactsOf');
    expect(await codes('edited.jpg')).toEqual(['EDITING_SOFTWARE']);
    for (const r of reads) expect(r).not.toHaveBeenCalled();
    expect(scoped).toHaveBeenCalled();
  });

  it('show --json is the same with the cached raised set and without it', async () => {
    const names = [...sha.keys()];
    await showText('original.jpg');
    const withCache = [];
    for (const n of names) withCache.push(await showText(n));
    const computed = [];
    for (const n of names) {
      await drop();
      computed.push(await showText(n));
    }
    expect(computed).toEqual(withCache);
    expect(withCache.join('')).toContain('EDITING_SOFTWARE');
    expect(withCache.join('')).toContain(`"likelyOriginal": "${sha.get('original.jpg')!}"`);
  });

  it('a planted line naming an object that raises nothing is refused: judged from the collection', async () => {
    await showText('other.jpg');
    const before = await cached();
    await plant(`${before}${sha.get('other.jpg')!} EDITING_SOFTWARE,TIMESTAMP_OUT_OF_RANGE\n`);
    expect(await codes('other.jpg')).toEqual([]);
    const after = await cached();
    expect(after).not.toContain(sha.get('other.jpg')!); // computed again, and cached again
    expect(body(after)).toBe(body(before));
  });

  it("an edited line (another object's codes) is refused: the indicators shown are the computed ones", async () => {
    const truth = await showText('cropped.jpg');
    const before = await cached();
    const line = new RegExp(`\\n${sha.get('cropped.jpg')!} [A-Z_,]+\\n`);
    await plant(
      before.replace(line, `\n${sha.get('cropped.jpg')!} EDITING_SOFTWARE,EXIF_MISSING\n`),
    );
    expect(await showText('cropped.jpg')).toBe(truth);
    expect(body(await cached())).toBe(body(before));
  });

  it("a key line for a later time, another analyses' ledger size or another version is stale: computed again", async () => {
    await showText('other.jpg');
    const before = await cached();
    const [head = ''] = before.split('\n');
    for (const forged of [
      head.replace(/"[0-9T:.Z-]+"\]$/, '"2999-01-01T00:00:00.000Z"]'),
      head.replace(/,(\d+),"/, (_m, n: string) => `,${Number(n) + 1},"`),
      head.replace('indicators/1 ', 'indicators/0 '),
    ]) {
      expect(forged).not.toBe(head);
      await plant(
        before
          .replace(head, forged)
          .replace(`\n${sha.get('edited.jpg')!} `, `\n${sha.get('other.jpg')!} `),
      );
      expect(await codes('edited.jpg')).toContain('EDITING_SOFTWARE'); // its line was removed above
      expect(await codes('other.jpg')).toEqual([]);
      expect(body(await cached())).toBe(body(before));
      expect((await cached()).split('\n')[0]).not.toBe(forged);
    }
  });

  it('a line named twice, or with an unknown code, is refused', async () => {
    await showText('other.jpg');
    const before = await cached();
    const edit = sha.get('edited.jpg')!;
    for (const forged of [
      `${before}${edit} EDITING_SOFTWARE\n`,
      before.replace(`\n${edit} `, `\n${edit} NOT_A_CODE,`),
    ]) {
      await plant(forged);
      const shown = (JSON.parse(await showText('edited.jpg')) as ShowJson).indicators;
      expect(shown?.map((i) => i.code)).toContain('EDITING_SOFTWARE');
      expect(JSON.stringify(shown)).not.toContain('NOT_A_CODE');
      expect(body(await cached())).toBe(body(before));
    }
  });

  it('rebuild drops a cache computed from an edited index: the indicator the edit hid is shown again', async () => {
    const edit = sha.get('edited.jpg')!;
    await withIndexDb(archive, (sql) =>
      sql.exec('UPDATE analyses SET software = NULL WHERE sha256 = ?', [edit]),
    );
    await drop();
    expect(await codes('other.jpg')).toEqual([]); // the cache is computed from the edited index
    expect(await cached()).not.toContain(edit);
    await run(0, 'rebuild');
    expect(await codes('edited.jpg')).toContain('EDITING_SOFTWARE');
    expect(await cached()).toContain(`\n${edit} `);
  });

  it('an ingestion with its analysis makes the cache stale: an object analysed since is judged', async () => {
    await showText('other.jpg');
    const before = await cached();
    await addFiles('more', [['later-edit.jpg', await editedScene('scene-f')]]);
    expect(await codes('later-edit.jpg')).toContain('EDITING_SOFTWARE');
    const after = await cached();
    expect(after.split('\n')[0]).not.toBe(before.split('\n')[0]);
    expect(after).toContain(`\n${sha.get('later-edit.jpg')!} `);
  });

  it("a line naming a camera-model indicator that the model's other images refute is refused", async () => {
    // Four images of another model, all saved by the same editor: each one's model peers mostly
    // carry that Software string, so it reads as firmware, and none raises the indicator.
    const firmware = async (seed: string): Promise<Buffer> =>
      sharp(await scene(seed))
        .withExif({ IFD0: { Make: 'Nikon', Model: 'E-Test', Software: 'Adobe Photoshop 25.0' } })
        .jpeg({ quality: 90 })
        .toBuffer();
    const names = ['firm-1.jpg', 'firm-2.jpg', 'firm-3.jpg', 'firm-4.jpg'];
    await addFiles(
      'firmware',
      await Promise.all(names.map(async (n): Promise<[string, Buffer]> => [n, await firmware(n)])),
    );
    expect(await codes('firm-1.jpg')).toEqual([]);
    const before = await cached();
    for (const n of names) expect(before).not.toContain(sha.get(n)!);
    await plant(`${before}${sha.get('firm-1.jpg')!} EDITING_SOFTWARE\n`);
    expect(await codes('firm-1.jpg')).toEqual([]);
    expect(body(await cached())).toBe(body(before));
  });
});

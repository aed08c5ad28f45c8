// `ingest --analyze` runs the analysis beside intake (issue 14): intake commits every 32 items
// and the analysis takes each committed object while the rest is still coming in. What it
// records must be what `ingest` then `analyze` records, entry for entry, and no analysis may
// come before the ingestion entry that names its object.
import { createHash } from 'node:crypto';
import { chmod, readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  custodyInExpect,
  expectClean,
  initArchive,
  objectPath,
  readLog,
  type LogLine,
  type TestArchive,
} from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

/** A small photo-like JPEG, different for every n (gradients, a bar, a disc). */
async function jpeg(n: number): Promise<Buffer> {
  const width = 96 + (n % 5) * 8;
  const height = 64 + (n % 3) * 8;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const disc = (x - ((n * 13) % width)) ** 2 + (y - ((n * 7) % height)) ** 2 < 200;
      raw[i] = (x * 255) / width;
      raw[i + 1] = disc ? 250 : (y * 255) / height;
      raw[i + 2] = Math.abs(x - n) < 6 ? 255 : (n * 37) % 200;
    }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function previewDigests(archive: TestArchive): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const root = join(archive.dir, 'derived', 'previews');
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const bytes = await readFile(join(e.parentPath, e.name));
    out.set(e.name, createHash('sha256').update(bytes).digest('hex'));
  }
  return out;
}

function analyses(log: readonly LogLine[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const l of log) {
    if (l.entry.type !== 'metadata extraction') continue;
    const [sha] = l.entry.objects;
    expect(out.has(sha ?? ''), `object ${sha} analysed twice`).toBe(false);
    out.set(sha ?? '', l.entry.details);
  }
  return out;
}

describe('ingest --analyze: the analysis beside intake', () => {
  let src: string;
  let overlapped: TestArchive;
  let sequential: TestArchive;

  beforeAll(async () => {
    const base = await makeTempDir('custody-ingest-overlap');
    src = join(base, 'src');
    await mkdir(join(src, 'b'), { recursive: true });
    // 75 distinct images (three intake commits of 32), a copy of one, a PNG and a text file.
    for (let n = 0; n < 75; n++)
      await writeFile(join(src, n < 40 ? '' : 'b', `IMG_${n}.jpg`), await jpeg(n));
    await writeFile(join(src, 'b', 'copy-of-3.jpg'), await jpeg(3));
    await writeFile(
      join(src, 'flat.png'),
      await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
        .png()
        .toBuffer(),
    );
    await writeFile(join(src, 'notes.txt'), 'not an image\n');

    overlapped = await initArchive(join(base, 'overlapped'));
    const one = await custodyInExpect(
      0,
      [
        'ingest',
        src,
        '--source',
        'SRC-A',
        '--new-source',
        '--analyze',
        '--archive',
        overlapped.dir,
        '--json',
      ],
      overlapped.env,
    );
    const report = JSON.parse(one.stdout) as {
      analysis: { done: number; failed: unknown[]; remaining: number };
    };
    expect(report.analysis).toMatchObject({ done: 76, failed: [], remaining: 0 });

    sequential = await initArchive(join(base, 'sequential'));
    await custodyInExpect(
      0,
      ['ingest', src, '--source', 'SRC-A', '--new-source', '--archive', sequential.dir, '--json'],
      sequential.env,
    );
    await custodyInExpect(0, ['analyze', '--archive', sequential.dir, '--json'], sequential.env);
  }, 300_000);

  it('records the same analysis of every object as ingest then analyze, and the same previews', async () => {
    const a = analyses(await readLog(overlapped));
    const b = analyses(await readLog(sequential));
    expect(a.size).toBe(76); // 75 JPEGs + the PNG; the copy is the same object; text is not analysed
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [sha, details] of a) expect(details, sha).toEqual(b.get(sha));
    expect(await previewDigests(overlapped)).toEqual(await previewDigests(sequential));
  });

  it('appends no analysis before the ingestion entry naming its object, and verifies clean', async () => {
    const named = new Set<string>();
    for (const l of await readLog(overlapped)) {
      if (l.entry.type === 'ingestion') for (const o of l.entry.objects) named.add(o);
      if (l.entry.type === 'metadata extraction')
        expect(
          named.has(l.entry.objects[0] ?? ''),
          `analysis at ${l.index} before its object's ingestion`,
        ).toBe(true);
    }
    await expectClean(overlapped);
  });
});

describe('analysis of a tampered object', () => {
  it('an object file replaced in the store after intake is not analysed: STORE_DIGEST_MISMATCH, nothing recorded for it', async () => {
    const base = await makeTempDir('custody-analyse-tampered');
    const src = join(base, 'src');
    await mkdir(src, { recursive: true });
    const [a, b] = [await jpeg(1), await jpeg(2)];
    await writeFile(join(src, 'a.jpg'), a);
    await writeFile(join(src, 'b.jpg'), b);
    const archive = await initArchive(join(base, 'archive'));
    await custodyInExpect(
      0,
      ['ingest', src, '--source', 'SRC-A', '--new-source', '--archive', archive.dir, '--json'],
      archive.env,
    );
    const target = createHash('sha256').update(a).digest('hex');
    const other = createHash('sha256').update(b).digest('hex');
    // Someone with access to the archive folder swaps a's bytes for b's before the analysis runs.
    await chmod(objectPath(archive.dir, target), 0o644);
    await writeFile(objectPath(archive.dir, target), b);
    const r = await custodyInExpect(
      1,
      ['analyze', '--archive', archive.dir, '--json'],
      archive.env,
    );
    const summary = JSON.parse(r.stdout) as {
      done: number;
      failed: { sha256: string; code: string | null }[];
    };
    expect(summary.failed.map((f) => [f.sha256, f.code])).toEqual([
      [target, 'STORE_DIGEST_MISMATCH'],
    ]);
    expect(summary.done).toBe(1);
    const analysed = [...analyses(await readLog(archive)).keys()];
    expect(analysed).toEqual([other]); // nothing signed about the tampered object
  });
});

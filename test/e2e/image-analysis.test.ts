// Image analysis through the CLI: ingest queues, analyze runs once per object, show reports it,
// previews apply EXIF orientation while evidence never changes, hostile images only warn.
// The CLI runs in-process (runCli: the output and exit code the binary gives, without a process
// per command); no exit code of the binary itself is under test here.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCustodyInProcess as runCustody } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

// c2pa-rs test images (MIT OR Apache-2.0), read from the shared fixtures: skipped where absent.
const C2PA_FIXTURES = join(REPO_ROOT, '..', 'shared', 'fixtures', 'c2pa', 'c2pa-rs');

interface ShowJson {
  sha256: string;
  analysed: boolean;
  pdq: string | null;
  pdq_quality: number | null;
  pdq_dihedral: Record<string, string> | null;
  crops: { region: string; hash: string }[];
  metadata: { make: string | null; orientation: number | null; width: number | null; height: number | null; jpeg_quality: number | null } | null;
  analysis_warnings: string[];
  c2pa: { state: string; codes: string[] } | null;
  items: { id: string; relative_path: string }[];
}

async function photo(width: number, height: number, orientation: number, make: string): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
    const i = (y * width + x) * 3;
    raw[i] = (x * 255) / width;
    raw[i + 1] = (y * 255) / height;
    raw[i + 2] = x < width / 4 ? 255 : 40;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .withMetadata({ orientation })
    .withIccProfile('srgb', { attach: false })
    .withExif({ IFD0: { Make: make, Model: `${make} One`, DateTime: '2013:05:14 10:00:00' }, IFD2: { DateTimeOriginal: '2013:05:14 10:00:00' } })
    .jpeg({ quality: 88 })
    .toBuffer();
}

describe('custody analyze', () => {
  let archive: string;
  let env: Record<string, string>;
  const files = new Map<string, Buffer>();

  beforeAll(async () => {
    const dir = await makeTempDir('custody-analysis');
    archive = join(dir, 'archive');
    env = { CUSTODY_ARCHIVE: archive };
    const src = join(dir, 'src');
    await mkdir(join(src, 'copies'), { recursive: true });
    files.set('upright.jpg', await photo(320, 200, 1, 'Alpha'));
    files.set('rotated.jpg', await photo(320, 200, 6, 'Alpha'));
    files.set('copies/upright.jpg', files.get('upright.jpg') ?? Buffer.alloc(0));
    files.set('plain.png', await sharp({ create: { width: 64, height: 48, channels: 3, background: '#804020' } }).png().toBuffer());
    const broken = Buffer.from(files.get('upright.jpg') ?? Buffer.alloc(0));
    files.set('broken.jpg', broken.subarray(0, Math.floor(broken.length / 3)));
    files.set('notes.txt', Buffer.from('not an image\n'));
    // A scanner-style TIFF: uncompressed, its first directory after the image data (beyond the
    // bytes read to recognise a file), which once made it anonymous bytes, never analysed.
    files.set('scan.tif', await sharp(await photo(160, 120, 1, 'Scanner')).tiff({ compression: 'none' }).toBuffer());
    for (const [name, bytes] of files) await writeFile(join(src, name), bytes);
    expect((await runCustody(['init'], { env })).code).toBe(0);
    expect((await runCustody(['ingest', src, '--source', 'LARK', '--new-source'], { env })).code).toBe(0);
  });

  const show = async (name: string): Promise<ShowJson> => {
    const sha = createHash('sha256').update(files.get(name) ?? Buffer.alloc(0)).digest('hex');
    const r = await runCustody(['show', sha, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as ShowJson;
  };

  it('analyses each object once, however many items share it, and a second run does nothing', async () => {
    const first = await runCustody(['analyze', '--json'], { env });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const s1 = JSON.parse(first.stdout) as { done: number; failed: unknown[] };
    // upright (two items, one object), rotated, png, broken, the TIFF: five images; the text file is not one
    expect(s1.done).toBe(5);
    expect(s1.failed).toEqual([]);
    const second = JSON.parse((await runCustody(['analyze', '--json'], { env })).stdout) as { done: number };
    expect(second.done).toBe(0);
    const log = (await runCustody(['log', '--json'], { env })).stdout.trim().split('\n').map((l) => JSON.parse(l) as { entry: { type: string; objects: string[] } });
    const analyses = log.filter((l) => l.entry.type === 'metadata extraction');
    expect(analyses).toHaveLength(5);
    expect(new Set(analyses.map((a) => a.entry.objects[0])).size).toBe(5);
    expect((await runCustody(['verify'], { env })).code).toBe(0);
  });

  it('recognises a TIFF whose first directory comes late as image/tiff, and analyses it', async () => {
    const tif = files.get('scan.tif')!;
    expect(tif.readUInt32LE(4)).toBeGreaterThan(4100);
    const s = await show('scan.tif');
    expect(s.analysed).toBe(true);
    expect(s.pdq).toMatch(/^[0-9a-f]{64}$/);
    expect(s.metadata).toMatchObject({ width: 160, height: 120 });
  });

  it('shows PDQ with its 8 dihedral variants, the crop hashes and the metadata', async () => {
    const s = await show('upright.jpg');
    expect(s.analysed).toBe(true);
    expect(s.pdq).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(s.pdq_dihedral ?? {}).sort()).toEqual(['flipMinus1', 'flipPlus1', 'flipX', 'flipY', 'original', 'rotate180', 'rotate270', 'rotate90']);
    expect(s.pdq_dihedral?.original).toBe(s.pdq);
    expect(s.crops).toHaveLength(10);
    expect(s.metadata).toMatchObject({ make: 'Alpha', orientation: 1, width: 320, height: 200, jpeg_quality: 88 });
    expect(s.items.map((i) => i.relative_path).sort()).toEqual(['copies/upright.jpg', 'upright.jpg']);
    expect(s.c2pa).toEqual({ state: 'none', codes: [] });
  });

  it('hashes the pixels as stored (no EXIF rotation), but previews are oriented; evidence never changes', async () => {
    const upright = await show('upright.jpg');
    const rotated = await show('rotated.jpg');
    expect(rotated.metadata?.orientation).toBe(6);
    expect(rotated.pdq).toBe(upright.pdq); // same pixels, only the tag differs
    const r = await runCustody(['preview', (rotated.items[0] ?? { id: '' }).id, '--unblurred', '--json'], { env });
    const preview = JSON.parse(r.stdout) as { path: string; blurred: boolean };
    expect(preview.blurred).toBe(false);
    const meta = await sharp(preview.path).metadata();
    expect([meta.width, meta.height]).toEqual([160, 256]); // 320×200 turned upright, fitted in 256
    const blurred = JSON.parse((await runCustody(['preview', rotated.sha256, '--json'], { env })).stdout) as { path: string; blurred: boolean };
    expect(blurred.blurred).toBe(true);
    expect(existsSync(blurred.path)).toBe(true);
    expect((await sharp(blurred.path).stats()).isOpaque).toBe(true);
    const stored = await readFile(join(archive, 'objects', 'sha256', rotated.sha256.slice(0, 2), rotated.sha256));
    expect(createHash('sha256').update(stored).digest('hex')).toBe(rotated.sha256);
  });

  it('records a warning, not a failure, for a truncated JPEG', async () => {
    const s = await show('broken.jpg');
    expect(s.analysed).toBe(true);
    expect(s.analysis_warnings.join(' ')).toMatch(/decode|jpeg/i);
  });

  it.skipIf(!existsSync(C2PA_FIXTURES))('records C2PA validation: valid, and a data-hash mismatch after signing', async () => {
    const dir = await makeTempDir('custody-c2pa');
    for (const name of ['CA.jpg', 'XCA.jpg']) await writeFile(join(dir, name), await readFile(join(C2PA_FIXTURES, name)));
    expect((await runCustody(['ingest', dir, '--source', 'WREN', '--new-source'], { env })).code).toBe(0);
    expect((await runCustody(['analyze'], { env })).code).toBe(0);
    for (const [name, state] of [['CA.jpg', 'valid'], ['XCA.jpg', 'invalid']] as const) {
      const sha = createHash('sha256').update(await readFile(join(dir, name))).digest('hex');
      const s = JSON.parse((await runCustody(['show', sha, '--json'], { env })).stdout) as ShowJson;
      expect(s.c2pa?.state).toBe(state);
      if (state === 'invalid') expect(s.c2pa?.codes).toContain('assertion.dataHash.mismatch');
    }
  });

  it('prints the full ExifTool dump on demand', async () => {
    const s = await show('upright.jpg');
    const r = await runCustody(['exif', s.sha256], { env });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Record<string, unknown>)['EXIF:Make']).toBe('Alpha');
  });
});

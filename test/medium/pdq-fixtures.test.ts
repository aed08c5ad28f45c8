// PDQ against Meta's reference values (fixtures/pdq/NOTES.md), through the real sharp decoder.
// - exact/ PNGs (copied to test/fixtures/pdq, see SOURCE.md): hash, quality and all 8 dihedral
//   hashes must EQUAL the C++ core's wherever the vectors mark them stable.
// - JPEG rows of expected_hashes.csv (read from ../shared/fixtures, not copied): within 10 bits of
//   the `primary` column (Meta's rule for other decoders), for full decode and shrink-on-load.
// - Generated 8 MP JPEGs: shrink-on-load vs full decode, distance and time (printed, not asserted).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIHEDRAL_NAMES,
  hammingDistance,
  lumaFromPixels,
  pdqIntermediatesFromLuma,
  pdqOfImage,
  planShrinkOnLoad,
  type DihedralName,
} from '../../src/analysis/pdq/index.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const EXACT_DIR = path.resolve(HERE, '../fixtures/pdq/exact');
const SHARED_PDQ = path.resolve(HERE, '../../../shared/fixtures/pdq');
const SHARED_CSV = path.join(SHARED_PDQ, 'expected_hashes.csv');
const SHARED_REASON = existsSync(SHARED_CSV)
  ? null
  : `reference JPEGs not found at ${SHARED_PDQ} (they are not copied into the repo; see test/fixtures/pdq/SOURCE.md)`;

/** The vectors' dihedral keys (pdqhashing.h spelling, lower case) -> ours. */
const VECTOR_DIHEDRAL_KEY: Record<DihedralName, string> = {
  original: 'original',
  rotate90: 'rotate90',
  rotate180: 'rotate180',
  rotate270: 'rotate270',
  flipX: 'flipx',
  flipY: 'flipy',
  flipPlus1: 'flipplus1',
  flipMinus1: 'flipminus1',
};

interface ExactVector {
  file: string; // 'exact/<name>.png'
  width: number;
  height: number;
  hash: string;
  quality: number;
  hash_stable: boolean;
  dihedral_stable: boolean;
  dihedral: Record<string, string>;
  luma64x64?: number[];
  dct16x16?: number[];
}

const vectors = (
  JSON.parse(readFileSync(path.join(EXACT_DIR, 'exact_vectors.json'), 'utf8')) as {
    vectors: ExactVector[];
  }
).vectors;
const pngPath = (v: ExactVector): string => path.join(EXACT_DIR, path.basename(v.file));

describe('PDQ exact vectors (lossless PNGs, Meta C++ core)', () => {
  it('has the vectors it expects', () => {
    expect(vectors.length).toBe(19);
  });

  it.each(vectors.map((v) => [path.basename(v.file), v] as const))('%s', async (_name, v) => {
    const r = await pdqOfImage(pngPath(v));
    expect(r.quality).toBe(v.quality);
    if (v.hash_stable) expect(r.hash).toBe(v.hash);
    if (v.dihedral_stable) {
      for (const name of DIHEDRAL_NAMES) {
        expect({ name, hash: r.dihedral[name] }).toEqual({
          name,
          hash: v.dihedral[VECTOR_DIHEDRAL_KEY[name]],
        });
      }
    }
  });

  it('reproduces the reference 64×64 luma and 16×16 DCT buffers bit for bit', async () => {
    const withBuffers = vectors.filter((v) => v.luma64x64 && v.dct16x16);
    expect(withBuffers.length).toBeGreaterThan(0);
    for (const v of withBuffers) {
      const { data, info } = await sharp(pngPath(v), { ignoreIcc: true })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const luma = lumaFromPixels(data, info.width, info.height, info.channels);
      const im = pdqIntermediatesFromLuma(luma, info.width, info.height);
      // The dumps print 9 significant digits, which round-trip float32 exactly.
      expect(Array.from(im.luma64x64)).toEqual(v.luma64x64?.map(Math.fround));
      expect(Array.from(im.dct16x16)).toEqual(v.dct16x16?.map(Math.fround));
    }
  });
});

/** Minimal RFC 4180 reader for the fixture CSV (quoted fields may hold commas). */
function parseCsv(text: string): Record<string, string>[] {
  const records: string[][] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') field += text[++i];
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      records.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) records.push([...row, field]);
  const [header, ...rest] = records.filter((r) => r.length > 1);
  return rest.map((r) => Object.fromEntries((header ?? []).map((h, i) => [h, r[i] ?? ''])));
}

describe('PDQ on the reference JPEGs (within 10 bits of meta_cpp_core_fullres)', () => {
  it('full decode and shrink-on-load both stay within 10 bits', async (ctx) => {
    ctx.skip(SHARED_REASON !== null, SHARED_REASON ?? undefined);
    const rows = parseCsv(readFileSync(SHARED_CSV, 'utf8')).filter(
      (r) => r.match_rule === 'primary',
    );
    expect(rows.length).toBe(19);
    const table = [];
    for (const row of rows) {
      const file = path.join(SHARED_PDQ, 'images', row.file ?? '');
      const meta = await sharp(file).metadata();
      const plan = planShrinkOnLoad(meta.width ?? 0, meta.height ?? 0);
      const full = await pdqOfImage(file);
      const shrunk = await pdqOfImage(file, { shrinkOnLoad: true });
      table.push({
        file: row.file,
        size: `${meta.width}x${meta.height}`,
        q_ref: Number(row.quality),
        q_full: full.quality,
        d_full: hammingDistance(row.hash ?? '', full.hash),
        shrink: plan.target
          ? `1/${plan.jpegShrink} -> ${plan.target.width}x${plan.target.height}`
          : 'none',
        q_shrink: shrunk.quality,
        d_shrink: hammingDistance(row.hash ?? '', shrunk.hash),
      });
    }
    console.log('PDQ distance to the reference (primary) hash, in bits');
    console.table(table);
    const stats = (ds: number[]): string =>
      `max ${Math.max(...ds)}, mean ${(ds.reduce((a, b) => a + b, 0) / ds.length).toFixed(2)}, exact ${ds.filter((d) => d === 0).length}/${ds.length}`;
    console.log(`full decode: ${stats(table.map((t) => t.d_full))}`);
    console.log(`shrink-on-load: ${stats(table.map((t) => t.d_shrink))}`);
    for (const t of table) {
      expect(t.d_full, t.file).toBeLessThanOrEqual(10);
      expect(t.d_shrink, t.file).toBeLessThanOrEqual(10);
    }
  });
});

/** mulberry32: a tiny seeded PRNG, so the generated photos are the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An 8 MP JPEG of smooth random noise: three octaves of upscaled random pixels plus fine grain. */
async function smoothNoiseJpeg(seed: number, width = 3264, height = 2448): Promise<Buffer> {
  const r = random(seed);
  const octave = async (w: number, h: number): Promise<Buffer> => {
    const px = Buffer.alloc(w * h * 3);
    for (let i = 0; i < px.length; i++) px[i] = Math.floor(r() * 256);
    return sharp(px, { raw: { width: w, height: h, channels: 3 } })
      .resize(width, height, { fit: 'fill', kernel: 'cubic' })
      .raw()
      .toBuffer();
  };
  const [a, b, c] = [await octave(24, 18), await octave(96, 72), await octave(400, 300)];
  const out = Buffer.alloc(width * height * 3);
  for (let i = 0; i < out.length; i++) {
    const v =
      0.6 * (a[i] as number) + 0.3 * (b[i] as number) + 0.1 * (c[i] as number) + (r() - 0.5) * 12;
    out[i] = Math.max(0, Math.min(255, Math.round(v)));
  }
  return sharp(out, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function medianMs(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((x, y) => x - y);
  return Math.round(times[Math.floor(runs / 2)] as number);
}

describe('PDQ shrink-on-load on generated 8 MP JPEGs', () => {
  const RUNS = 5;
  const photos: Buffer[] = [];
  beforeAll(async () => {
    sharp.cache(false); // time real decodes, not libvips' operation cache
    for (const seed of [11, 22, 33]) photos.push(await smoothNoiseJpeg(seed));
  });
  afterAll(() => {
    sharp.cache(true);
  });

  it('stays within 10 bits of the full decode, and reports the time per image', async () => {
    const table = [];
    for (const [i, jpeg] of photos.entries()) {
      const full = await pdqOfImage(jpeg); // also warms up the JIT before timing
      const shrunk = await pdqOfImage(jpeg, { shrinkOnLoad: true });
      const plan = planShrinkOnLoad(3264, 2448);
      table.push({
        image: `noise-${i + 1} (${(jpeg.length / 1e6).toFixed(1)} MB)`,
        full_ms: await medianMs(RUNS, () => pdqOfImage(jpeg)),
        full_decode_only_ms: await medianMs(RUNS, () =>
          sharp(jpeg, { ignoreIcc: true }).removeAlpha().raw().toBuffer(),
        ),
        shrink_ms: await medianMs(RUNS, () => pdqOfImage(jpeg, { shrinkOnLoad: true })),
        shrink: `1/${plan.jpegShrink} -> ${plan.target?.width}x${plan.target?.height}`,
        quality: `${full.quality}/${shrunk.quality}`,
        distance: hammingDistance(full.hash, shrunk.hash),
      });
    }
    console.log(`PDQ of 3264x2448 JPEGs: median of ${RUNS} runs, full decode vs shrink-on-load`);
    console.table(table);
    for (const t of table) expect(t.distance, t.image).toBeLessThanOrEqual(10);
  });
});

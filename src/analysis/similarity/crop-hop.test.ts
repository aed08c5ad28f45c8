// The alignment step of findSimilarPairs on generated rasters with known crop boxes: a hash match
// whose rasters do not align is dropped, and a crop that no hash signal pairs with its original
// meets it through a copy (one hop), with the box within 2 % of the truth.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cropRaster, greyThumbnail, type Raster } from '../image/raster.js';
import { hammingDistance } from '../pdq/hash256.js';
import { cacheKeyOf, decodeCache, encodeCache } from './similarity-cache.js';
import { cropHashDistance, findSimilarPairs, type HashedObject } from './similarity.service.js';

function hash(label: string): string {
  return createHash('sha256').update(label).digest('hex');
}

/** Flips `bits` distinct bits of a hash, chosen from a label. */
function flip(hex: string, bits: number, label: string): string {
  const b = Buffer.from(hex, 'hex');
  const positions = new Set<number>();
  for (let i = 0; positions.size < bits; i++)
    positions.add(createHash('sha256').update(`${label}:${i}`).digest().readUInt16BE(0) % 256);
  for (const p of positions) b[p >> 3] = (b[p >> 3] ?? 0) ^ (1 << (p & 7));
  return b.toString('hex');
}

/** A photo-like synthetic raster: a horizon, smooth blobs, a texture, from a seed. */
function scene(seed: number, width = 480, height = 360): Raster {
  let s = seed >>> 0;
  const rnd = (): number => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const blobs = Array.from({ length: 6 }, () => ({ x: rnd(), y: rnd(), r: 0.05 + 0.2 * rnd(), v: 255 * rnd() }));
  const horizon = 0.3 + 0.4 * rnd();
  const [fu, fv, phase] = [10 + 30 * rnd(), 10 + 30 * rnd(), 6 * rnd()];
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = x / width;
      const v = y / height;
      let g = v < horizon ? 200 - 80 * v : 90 + 40 * Math.sin(u * fu + v * fv + phase);
      for (const b of blobs) {
        const d = ((u - b.x) ** 2 + (v - b.y) ** 2) / (b.r * b.r);
        if (d < 1) g = g * d + b.v * (1 - d);
      }
      const i = (y * width + x) * 3;
      data[i] = data[i + 1] = data[i + 2] = Math.max(0, Math.min(255, Math.round(g)));
    }
  }
  return { data, width, height, channels: 3 };
}

type Box = [number, number, number, number];

function crop(r: Raster, [l, t, rr, b]: Box): Raster {
  return cropRaster(r, [l, t, rr - l, b - t]);
}

function object(sha: string, pdq: string, grey: Uint8Array | undefined, crops: string[] = []): HashedObject {
  return {
    sha256: sha,
    pdq,
    dihedral: Array.from({ length: 7 }, (_, i) => hash(`${sha}:d${i}`)),
    crops,
    ...(grey === undefined ? {} : { grey }),
  };
}

function expectBox(box: { left: number; top: number; right: number; bottom: number }, [l, t, r, b]: Box): void {
  expect(Math.abs(box.left - l)).toBeLessThanOrEqual(0.02);
  expect(Math.abs(box.top - t)).toBeLessThanOrEqual(0.02);
  expect(Math.abs(box.right - r)).toBeLessThanOrEqual(0.02);
  expect(Math.abs(box.bottom - b)).toBeLessThanOrEqual(0.02);
}

describe('findSimilarPairs: the alignment step', () => {
  it('drops a hash match whose rasters do not align (same setting, another subject), keeps a crop that does', () => {
    const base = scene(11);
    const other = scene(11); // the same background, the subject in one place changed
    for (let y = 200; y < 300; y++)
      for (let x = 40; x < 160; x++) {
        const i = (y * 480 + x) * 3;
        other.data[i] = other.data[i + 1] = other.data[i + 2] = 255 - (base.data[i] ?? 0);
      }
    const box: Box = [0.02, 0.01, 0.97, 0.99];
    const pdq = hash('base');
    const objects = [
      object('base', pdq, greyThumbnail(base)),
      object('setting', flip(pdq, 20, 'setting'), greyThumbnail(other)), // PDQ 20: a hash match
      object('cropped', flip(pdq, 12, 'cropped'), greyThumbnail(crop(base, box))),
    ];
    const pairs = findSimilarPairs(objects);
    expect(pairs.map((p) => `${p.a} ${p.b}`)).toEqual(['base cropped']);
    expect(pairs[0]?.crop?.original).toBe('base');
    expectBox(pairs[0]!.crop!.box, box);
    // Without rasters (analyses from before custody-image/3) the hash match stands: the drop is the alignment's.
    const hashesOnly = findSimilarPairs(objects.map((o) => ({ ...o, grey: undefined })));
    expect(hashesOnly.map((p) => `${p.a} ${p.b}`)).toContain('base setting');
  });

  it('one hop: a crop that no hash signal pairs with its original meets it through a copy, box within 2 %', () => {
    const original = scene(23);
    const first: Box = [0.03, 0.02, 0.95, 0.97]; // the copy: a crop of the original
    const second: Box = [0.05, 0.04, 0.97, 0.94]; // the crop: a crop of the copy
    const copy = crop(original, first);
    const cropped = crop(copy, second);
    const w = first[2] - first[0];
    const h = first[3] - first[1];
    const truth: Box = [
      first[0] + second[0] * w,
      first[1] + second[1] * h,
      first[0] + second[2] * w,
      first[1] + second[3] * h,
    ];
    // The region hashes chain original → copy → crop; the original's hashes are nowhere near the crop's.
    const r1 = hash('region-of-original');
    const r2 = hash('region-of-copy');
    const objects = [
      object('original', hash('original'), greyThumbnail(original), [r1]),
      object('copy', flip(r1, 10, 'copy'), greyThumbnail(copy), [r2]),
      object('crop', flip(r2, 10, 'crop'), greyThumbnail(cropped)),
      object('unrelated', hash('unrelated'), greyThumbnail(scene(99))),
    ];
    const far = cropHashDistance(objects[0]!, objects[2]!);
    expect(far).toBeGreaterThan(80); // beyond every threshold of the candidate prefilter
    const pairs = findSimilarPairs(objects);
    const byKey = new Map(pairs.map((p) => [`${p.a} ${p.b}`, p]));
    expect([...byKey.keys()].sort()).toEqual(['copy crop', 'copy original', 'crop original']);
    const hop = byKey.get('crop original')!;
    expect(hop.kind).toBe('crop');
    expect(hop.distance).toBe(far);
    expect(hop.crop?.original).toBe('original');
    expectBox(hop.crop!.box, truth);
    // Without the copy the two are never compared.
    const alone = findSimilarPairs([objects[0]!, objects[2]!, objects[3]!]);
    expect(alone).toEqual([]);
    // The pair the hop recorded passes the cache's checks (its distance is one of their hash distances).
    const seqd = objects.map((o, i) => ({ ...o, seq: i }));
    const key = cacheKeyOf(seqd, {});
    expect(decodeCache(encodeCache(key, pairs), key, objects, {})).toEqual(pairs);
    expect(hammingDistance(objects[0]!.pdq, objects[2]!.pdq)).toBeGreaterThan(80);
  });
});

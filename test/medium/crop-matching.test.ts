// Crop matching on real JPEGs through sharp (issue 14): the analysis as ingest runs it
// (analyzeImage), then findSimilarPairs: each uneven crop, also turned, resized, re-compressed or
// brightened, is matched to its original with the crop box within 2 % of the truth.
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeC2paReader } from '../../src/analysis/c2pa/index.js';
import { analyzeImage } from '../../src/analysis/image/image-analysis.service.js';
import { DIHEDRAL_VARIANTS } from '../../src/analysis/pdq/index.js';
import {
  findSimilarPairs,
  type HashedObject,
  type SimilarPair,
} from '../../src/analysis/similarity/similarity.service.js';
import { scenePixels } from '../support/crop-scenes.js';
import { makeTempDir } from '../support/tmp.js';

const W = 800;
const H = 600;

async function scene(seed: string): Promise<Buffer> {
  const pixels = await scenePixels(seed, W, H);
  return sharp(pixels, { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

type Box = [number, number, number, number];
const CASES: { name: string; box: Box; edit: (s: Sharp) => Sharp }[] = [
  { name: 'uneven, four sides', box: [0.02, 0.01, 0.97, 0.98], edit: (s) => s.jpeg({ quality: 90 }) },
  { name: 'one side, 12 %', box: [0, 0, 0.88, 1], edit: (s) => s.jpeg({ quality: 90 }) },
  { name: 'three sides, resized to half, quality 60', box: [0.08, 0.03, 1, 0.9], edit: (s) => s.resize(Math.round(W * 0.46)).jpeg({ quality: 60 }) },
  { name: 'two sides, brightened', box: [0.05, 0, 1, 0.93], edit: (s) => s.modulate({ brightness: 1.15 }).jpeg({ quality: 90 }) },
  { name: 'two sides, turned a quarter', box: [0, 0.04, 0.9, 1], edit: (s) => s.rotate(90).jpeg({ quality: 90 }) },
];

describe('crop matching on JPEGs through sharp', () => {
  const bytes: Buffer[] = [];
  let pairs: SimilarPair[] = [];

  beforeAll(async () => {
    const original = await scene('medium-crop-a');
    bytes.push(original);
    for (const c of CASES) {
      const [l, t, r, b] = c.box;
      const left = Math.round(l * W);
      const top = Math.round(t * H);
      const cut = await sharp(original)
        .extract({ left, top, width: Math.round(r * W) - left, height: Math.round(b * H) - top })
        .jpeg({ quality: 95 })
        .toBuffer();
      bytes.push(await c.edit(sharp(cut)).toBuffer());
    }
    bytes.push(await scene('medium-crop-other'));
    const dir = await makeTempDir('crop-matching');
    const deps = {
      readObject: (key: string) => Promise.resolve(bytes[Number(key)]!),
      previewPaths: (key: string, size: number) => ({
        plain: join(dir, `${key}.${size}.webp`),
        blurred: join(dir, `${key}.${size}.blurred.webp`),
      }),
    };
    const objects: HashedObject[] = [];
    for (let i = 0; i < bytes.length; i++) {
      const r = (await analyzeImage(deps, String(i), 'image/jpeg')) as unknown as {
        pdq: { hash: string; dihedral: Record<string, string> };
        crops: { hash: string }[];
        align_grey: { size: number; data: string };
      };
      expect(r.align_grey.size).toBe(32);
      objects.push({
        sha256: String(i),
        pdq: r.pdq.hash,
        dihedral: DIHEDRAL_VARIANTS.map((k) => r.pdq.dihedral[k] ?? r.pdq.hash),
        crops: r.crops.map((c) => c.hash),
        grey: Uint8Array.from(Buffer.from(r.align_grey.data, 'base64')),
      });
    }
    pairs = findSimilarPairs(objects);
  }, 60_000);

  afterAll(() => closeC2paReader());

  for (const [k, c] of CASES.entries()) {
    it(`${c.name}: matched to the original, box within 2 %`, () => {
      const p = pairs.find((x) => x.a === '0' && x.b === String(k + 1));
      expect(p, JSON.stringify(pairs)).toBeDefined();
      expect(p!.crop?.original).toBe('0');
      const got = p!.crop!.box;
      const [l, t, r, b] = c.box;
      expect(Math.abs(got.left - l)).toBeLessThanOrEqual(0.02);
      expect(Math.abs(got.top - t)).toBeLessThanOrEqual(0.02);
      expect(Math.abs(got.right - r)).toBeLessThanOrEqual(0.02);
      expect(Math.abs(got.bottom - b)).toBeLessThanOrEqual(0.02);
    });
  }

  it('another scene is matched to none of them', () => {
    const other = String(bytes.length - 1);
    expect(pairs.filter((p) => p.a === other || p.b === other)).toEqual([]);
  });
});

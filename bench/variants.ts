// Near-duplicate quality corpus: base scenes from the demo generator, hard negatives, and planted
// variants of each base with known ground truth. Fixed seed and fixed edits, so every run and
// every machine measures the same files (given the same sharp/libvips build); cached under
// bench/.corpus (git-ignored).
//
// Groups: one base photo and its 14 variants. Hard negatives are their own groups: every other
// scene from the same camera and day (the plan's ordinary photos), and burst frames (the same
// scene panned by 0–2 % a frame and re-grained: a different photograph, taken a moment later).
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import {
  createSeededRandom,
  planCollection,
  renderPhoto,
  type PlannedPhoto,
} from '../src/demo/index.js';
import { addGrain, describeScene, paintScene } from '../src/demo/scene-paint.js';

/**
 * Two generator seeds, both fixed before any tuning (issue 14): thresholds are chosen on `tune`
 * and the figures reported on `report`. QUALITY_SEED_SET=tune|report picks one (report by default).
 */
export const QUALITY_SEEDS = {
  tune: 'near-duplicate-quality-v3-tune',
  report: 'near-duplicate-quality-v3-report',
} as const;
export const QUALITY_SEED =
  QUALITY_SEEDS[process.env.QUALITY_SEED_SET === 'tune' ? 'tune' : 'report'];
/** About 2 MP: large enough that analysis shrinks on load (1/2), small enough to render fast. */
const MEGAPIXELS: [number, number] = [2, 2];
/**
 * Every 4th base also gets a later frame of its own scene, sceneVariant 3 (panned 3 × 0–2 %,
 * new grain): the same place a few seconds later, a harder negative than the next frame.
 */
const EXTRA_BURST_EVERY = 4;
const EXTRA_BURST_VARIANT = 3;

export const VARIANT_KINDS = [
  'q60', // re-encoded at quality 60, metadata kept
  'q75',
  'resize-50', // half the width and height, quality 85
  'resize-75',
  'crop-centre-90', // 5 % off every side
  'crop-side-90', // 10 % off one side (left, top, right or bottom, by base), full other axis
  'crop-corner-90', // 10 % off two adjacent sides (a corner kept), as a phone's crop tool does
  'brighten-15', // +15 % brightness (HSV value), quality 90
  'rotate-90', // pixels turned (as an app that applies Orientation and strips EXIF)
  'rotate-180',
  'rotate-270',
  'flip', // top-bottom mirror
  'flop', // left-right mirror
  'exif-stripped', // APP1 segments removed byte for byte; the entropy-coded data untouched
  // Uneven crops (issue 14): n sides chosen at random per base, each cut by 1–15 %.
  'crop-uneven-1',
  'crop-uneven-2',
  'crop-uneven-3',
  'crop-uneven-4',
  'crop-small', // 1–3 % off each of the four sides, unevenly (what the old windows missed)
  // An uneven crop (1–4 sides, 1–15 % each) combined with each other edit.
  'crop-q60',
  'crop-resize-50',
  'crop-brighten',
  'crop-rotate-90',
  'crop-rotate-180',
  'crop-rotate-270',
  'crop-flip',
  'crop-flop',
  'card-cut', // the side holding the painted number card cut off (the card gone), others 0–3 %
] as const;
export type VariantKind = (typeof VARIANT_KINDS)[number];
/**
 * 'setting': a hard negative, its own group: the same background (sky, ground, blocks, grain)
 * with a different subject (the blobs) and a number card in the same place, other digits.
 */
export type FileKind = 'base' | 'burst' | 'setting' | VariantKind;

export interface QualityFile {
  /** Path of the JPEG. */
  path: string;
  /** Ground truth: files with the same group are near-duplicates of one another. */
  group: number;
  kind: FileKind;
  /** The scene it shows (burst frames share their base's scene, but not its group). */
  sceneSeed: string;
  /** Frame of the scene's burst: 0 for bases and their variants. */
  sceneVariant: number;
  camera: string;
  /** Camera-local day, 'YYYY-MM-DD'. */
  day: string;
  /** Crop variants: the box of the base it shows (left, top, right, bottom fractions). */
  box?: [number, number, number, number];
}

export interface QualityCorpus {
  dir: string;
  files: QualityFile[];
}

/** Generates (once) and returns the corpus for `bases` base photos. */
export async function ensureQualityCorpus(bases: number): Promise<QualityCorpus> {
  const root = join('bench', '.corpus', `${QUALITY_SEED}-${bases}`);
  const manifestPath = join(root, 'manifest.json');
  if (existsSync(manifestPath)) {
    return {
      dir: join(root, 'files'),
      files: JSON.parse(await readFile(manifestPath, 'utf8')) as QualityFile[],
    };
  }
  await rm(root, { recursive: true, force: true });
  const dir = join(root, 'files');
  await mkdir(dir, { recursive: true });
  const jobs = planJobs(bases);
  const files: QualityFile[][] = new Array<QualityFile[]>(jobs.length);
  let next = 0;
  let done = 0;
  const started = Date.now();
  await Promise.all(
    [0, 1].map(async () => {
      while (next < jobs.length) {
        const i = next++;
        files[i] = await writeJob(dir, jobs[i]!);
        if (++done % 20 === 0 || done === jobs.length)
          process.stderr.write(`\r  generating quality corpus: ${done}/${jobs.length} scenes`);
      }
    }),
  );
  process.stderr.write(` (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  const flat = files.flat();
  await writeFile(manifestPath, JSON.stringify(flat));
  return { dir, files: flat };
}

interface Job {
  photo: PlannedPhoto;
  group: number;
  kind: 'base' | 'burst';
  /** For bases: which side crop-side-90 takes off (0 left, 1 top, 2 right, 3 bottom). */
  side: number;
}

/** The plan's prefix with `bases` new scenes; burst frames in it stay, as hard negatives. */
function planJobs(bases: number): Job[] {
  const plan = planCollection({
    count: bases * 2,
    seed: QUALITY_SEED,
    megapixels: MEGAPIXELS,
    duplicateRate: 0,
  });
  const jobs: Job[] = [];
  let baseCount = 0;
  for (const p of plan) {
    if (p.sceneVariant > 0) {
      if (baseCount > 0) jobs.push({ photo: p, group: jobs.length, kind: 'burst', side: 0 });
      continue;
    }
    if (baseCount === bases) break;
    jobs.push({ photo: p, group: jobs.length, kind: 'base', side: baseCount % 4 });
    if (baseCount % EXTRA_BURST_EVERY === 0) {
      const frame = {
        ...p,
        sceneVariant: EXTRA_BURST_VARIANT,
        relativePath: `${p.relativePath}.burst`,
      };
      jobs.push({ photo: frame, group: jobs.length, kind: 'burst', side: 0 });
    }
    baseCount++;
  }
  return jobs;
}

async function writeJob(dir: string, job: Job): Promise<QualityFile[]> {
  const p = job.photo;
  const jpeg = await renderPhoto(p);
  const meta = {
    group: job.group,
    sceneSeed: p.sceneSeed,
    sceneVariant: p.sceneVariant,
    camera: p.camera.id,
    day: p.relativePath.split('/')[1] ?? '',
  };
  const out: QualityFile[] = [];
  const put = async (kind: FileKind, bytes: Buffer): Promise<void> => {
    const path = join(dir, `g${String(job.group).padStart(4, '0')}-${kind}.jpg`);
    await writeFile(path, bytes);
    out.push({ path, kind, ...meta });
  };
  if (job.kind !== 'base') {
    await put(job.kind, jpeg);
    return out;
  }
  const r = createSeededRandom(QUALITY_SEED, `card-${job.group}`);
  const card = placeCard(r, p.width, p.height);
  const base = await withCard(jpeg, card, r.uint32(), p.quality);
  await put('base', base);
  for (const kind of VARIANT_KINDS) {
    const box = cropBoxFor(kind, job.group, card);
    const bytes = await makeVariant(base, kind, p.width, p.height, job.side, box);
    await put(kind, bytes);
    if (box !== null) out[out.length - 1]!.box = box;
  }
  // The same setting, another subject, the card in the same place with other digits.
  const setting = await renderSetting(p, `${p.sceneSeed}/other-subject`);
  const path = join(dir, `g${String(job.group).padStart(4, '0')}-setting.jpg`);
  await writeFile(path, await withCard(setting, card, r.uint32(), p.quality));
  out.push({ path, kind: 'setting', ...meta, group: -1 - job.group, sceneSeed: `${p.sceneSeed}/setting` });
  return out;
}

interface Card {
  /** Which side of the frame it sits by: 0 left, 1 top, 2 right, 3 bottom. */
  side: number;
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A number card 14 × 8 % of the frame, its outer edge 1–3 % from a side (bottom most often). */
function placeCard(r: ReturnType<typeof createSeededRandom>, w: number, h: number): Card {
  const side = r.pick([3, 3, 0, 2]);
  const width = Math.round(0.14 * w);
  const height = Math.round(0.08 * h);
  const gap = r.between(0.01, 0.03);
  const along = r.between(0.1, 0.75);
  switch (side) {
    case 0:
      return { side, left: Math.round(gap * w), top: Math.round(along * h), width, height };
    case 2:
      return { side, left: Math.round((1 - gap) * w) - width, top: Math.round(along * h), width, height };
    default:
      return { side, left: Math.round(along * w), top: Math.round((1 - gap) * h) - height, width, height };
  }
}

/** Paints a white card with dark digit-like bars (from `digits`) onto the JPEG; re-encodes it. */
async function withCard(jpeg: Buffer, c: Card, digits: number, quality: number): Promise<Buffer> {
  const px = Buffer.alloc(c.width * c.height * 3, 235);
  const glyphs = 5;
  for (let g = 0; g < glyphs; g++) {
    const bits = (digits >>> (g * 6)) & 0x3f;
    const x0 = Math.round(((g + 0.3) / glyphs) * c.width);
    const gw = Math.round((0.5 / glyphs) * c.width);
    for (let k = 0; k < 6; k++) {
      if (((bits >> k) & 1) === 0) continue;
      const y0 = Math.round((0.15 + (k * 0.7) / 6) * c.height);
      const y1 = Math.round((0.15 + ((k + 1) * 0.7) / 6) * c.height);
      for (let y = y0; y < y1; y++)
        for (let x = x0; x < x0 + gw; x++) px.fill(30, (y * c.width + x) * 3, (y * c.width + x) * 3 + 3);
    }
  }
  return sharp(jpeg)
    .composite([{ input: px, raw: { width: c.width, height: c.height, channels: 3 }, left: c.left, top: c.top }])
    .keepMetadata()
    .jpeg({ quality })
    .toBuffer();
}

/** The base's background and blocks, the blobs (the subject) of another seed, new grain. */
async function renderSetting(p: PlannedPhoto, otherSeed: string): Promise<Buffer> {
  const scene = { ...describeScene(p.sceneSeed), blobs: describeScene(otherSeed).blobs };
  const [cw, ch] = [Math.ceil(p.width / 2), Math.ceil(p.height / 2)];
  const pixels = await sharp(paintScene(scene, 0, cw, ch), { raw: { width: cw, height: ch, channels: 3 } })
    .resize(p.width, p.height, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer();
  addGrain(pixels, scene, 7);
  return sharp(pixels, { raw: { width: p.width, height: p.height, channels: 3 } })
    .jpeg({ quality: p.quality })
    .toBuffer();
}

const CROP_COMBINED = new Set<VariantKind>([
  'crop-q60',
  'crop-resize-50',
  'crop-brighten',
  'crop-rotate-90',
  'crop-rotate-180',
  'crop-rotate-270',
  'crop-flip',
  'crop-flop',
]);

/** The box (left, top, right, bottom fractions) an uneven-crop variant keeps; null for the others. */
function cropBoxFor(kind: VariantKind, group: number, card: Card): [number, number, number, number] | null {
  const r = createSeededRandom(QUALITY_SEED, `crop-${group}-${kind}`);
  const cuts = [0, 0, 0, 0]; // left, top, right, bottom
  const sides = (n: number): void => {
    const order = [0, 1, 2, 3];
    for (let i = 3; i > 0; i--) {
      const j = r.int(0, i);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const s of order.slice(0, n)) cuts[s] = r.between(0.01, 0.15);
  };
  const m = /^crop-uneven-(\d)$/.exec(kind);
  if (m !== null) sides(Number(m[1]));
  else if (kind === 'crop-small') for (let s = 0; s < 4; s++) cuts[s] = r.between(0.01, 0.03);
  else if (CROP_COMBINED.has(kind)) sides(r.int(1, 4));
  else if (kind === 'card-cut') {
    for (let s = 0; s < 4; s++) cuts[s] = r.chance(0.5) ? r.between(0, 0.03) : 0;
    // Past the card's inner edge, plus 0.5–2 %.
    const w = card.width / 0.14;
    const h = card.height / 0.08;
    const inner = [
      (card.left + card.width) / w,
      (card.top + card.height) / h,
      1 - card.left / w,
      1 - card.top / h,
    ][card.side]!;
    cuts[card.side] = inner + r.between(0.005, 0.02);
  } else return null;
  const f = (v: number): number => Math.round(v * 10000) / 10000;
  return [f(cuts[0]!), f(cuts[1]!), f(1 - cuts[2]!), f(1 - cuts[3]!)];
}

/** One planted edit of `jpeg` (stored pixels, Orientation not applied, as the hash sees them). */
export async function makeVariant(
  jpeg: Buffer,
  kind: VariantKind,
  width: number,
  height: number,
  side: number,
  box: [number, number, number, number] | null = null,
): Promise<Buffer> {
  const img = (): Sharp => sharp(jpeg);
  const boxed = (): Sharp => {
    const [l, t, r, b] = box ?? [0, 0, 1, 1];
    const x0 = Math.round(l * width);
    const y0 = Math.round(t * height);
    return sharp(jpeg)
      .extract({ left: x0, top: y0, width: Math.round(r * width) - x0, height: Math.round(b * height) - y0 })
      .keepMetadata();
  };
  // extract then rotate/flip/resize: sharp applies extract first when it is called first.
  const reboxed = async (): Promise<Sharp> => sharp(await boxed().jpeg({ quality: 95 }).toBuffer()).keepMetadata();
  const crop = (left: number, top: number, w: number, h: number): Sharp =>
    img()
      .extract({
        left: Math.round(left * width),
        top: Math.round(top * height),
        width: Math.round(w * width),
        height: Math.round(h * height),
      })
      .keepMetadata();
  switch (kind) {
    case 'q60':
      return img().keepMetadata().jpeg({ quality: 60 }).toBuffer();
    case 'q75':
      return img().keepMetadata().jpeg({ quality: 75 }).toBuffer();
    case 'resize-50':
      return img()
        .resize(Math.round(width * 0.5))
        .keepMetadata()
        .jpeg({ quality: 85 })
        .toBuffer();
    case 'resize-75':
      return img()
        .resize(Math.round(width * 0.75))
        .keepMetadata()
        .jpeg({ quality: 85 })
        .toBuffer();
    case 'crop-centre-90':
      return crop(0.05, 0.05, 0.9, 0.9).jpeg({ quality: 90 }).toBuffer();
    case 'crop-side-90': {
      const boxes: [number, number, number, number][] = [
        [0.1, 0, 0.9, 1],
        [0, 0.1, 1, 0.9],
        [0, 0, 0.9, 1],
        [0, 0, 1, 0.9],
      ];
      const [l, t, w, h] = boxes[side % 4]!;
      return crop(l, t, w, h).jpeg({ quality: 90 }).toBuffer();
    }
    case 'crop-corner-90': {
      const corners: [number, number][] = [
        [0, 0],
        [0.1, 0],
        [0, 0.1],
        [0.1, 0.1],
      ];
      const [l, t] = corners[side % 4]!;
      return crop(l, t, 0.9, 0.9).jpeg({ quality: 90 }).toBuffer();
    }
    case 'brighten-15':
      return img().modulate({ brightness: 1.15 }).keepMetadata().jpeg({ quality: 90 }).toBuffer();
    case 'rotate-90':
      return img().rotate(90).jpeg({ quality: 90 }).toBuffer();
    case 'rotate-180':
      return img().rotate(180).jpeg({ quality: 90 }).toBuffer();
    case 'rotate-270':
      return img().rotate(270).jpeg({ quality: 90 }).toBuffer();
    case 'flip':
      return img().flip().jpeg({ quality: 90 }).toBuffer();
    case 'flop':
      return img().flop().jpeg({ quality: 90 }).toBuffer();
    case 'exif-stripped':
      return stripApp1(jpeg);
    case 'crop-uneven-1':
    case 'crop-uneven-2':
    case 'crop-uneven-3':
    case 'crop-uneven-4':
    case 'crop-small':
    case 'card-cut':
      return boxed().jpeg({ quality: 90 }).toBuffer();
    case 'crop-q60':
      return boxed().jpeg({ quality: 60 }).toBuffer();
    case 'crop-resize-50':
      return (await reboxed()).resize(Math.round(width * 0.5 * ((box?.[2] ?? 1) - (box?.[0] ?? 0)))).jpeg({ quality: 85 }).toBuffer();
    case 'crop-brighten':
      return boxed().modulate({ brightness: 1.15 }).jpeg({ quality: 90 }).toBuffer();
    case 'crop-rotate-90':
      return (await reboxed()).rotate(90).jpeg({ quality: 90 }).toBuffer();
    case 'crop-rotate-180':
      return (await reboxed()).rotate(180).jpeg({ quality: 90 }).toBuffer();
    case 'crop-rotate-270':
      return (await reboxed()).rotate(270).jpeg({ quality: 90 }).toBuffer();
    case 'crop-flip':
      return (await reboxed()).flip().jpeg({ quality: 90 }).toBuffer();
    case 'crop-flop':
      return (await reboxed()).flop().jpeg({ quality: 90 }).toBuffer();
  }
}

/** Drops every APP1 segment (EXIF, XMP) before the scan; the compressed pixels stay as they were. */
export function stripApp1(jpeg: Buffer): Buffer {
  const parts: Buffer[] = [jpeg.subarray(0, 2)];
  let i = 2;
  while (i + 4 <= jpeg.length) {
    if (jpeg[i] !== 0xff) throw new Error(`not a JPEG marker at ${i}`);
    const marker = jpeg[i + 1]!;
    if (marker === 0xda) {
      parts.push(jpeg.subarray(i));
      break;
    }
    const end = i + 2 + jpeg.readUInt16BE(i + 2);
    if (marker !== 0xe1) parts.push(jpeg.subarray(i, end));
    i = end;
  }
  return Buffer.concat(parts);
}

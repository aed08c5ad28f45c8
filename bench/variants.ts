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
import { planCollection, renderPhoto, type PlannedPhoto } from '../src/demo/index.js';

export const QUALITY_SEED = 'near-duplicate-quality-v2';
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
] as const;
export type VariantKind = (typeof VARIANT_KINDS)[number];
export type FileKind = 'base' | 'burst' | VariantKind;

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
  await put(job.kind, jpeg);
  if (job.kind === 'base') {
    for (const kind of VARIANT_KINDS)
      await put(kind, await makeVariant(jpeg, kind, p.width, p.height, job.side));
  }
  return out;
}

/** One planted edit of `jpeg` (stored pixels, Orientation not applied, as the hash sees them). */
export async function makeVariant(
  jpeg: Buffer,
  kind: VariantKind,
  width: number,
  height: number,
  side: number,
): Promise<Buffer> {
  const img = (): Sharp => sharp(jpeg);
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

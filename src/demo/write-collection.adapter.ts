import { constants } from 'node:fs';
import { copyFile, mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sha256, toHex } from '../core/index.js';
import { DemoError } from './errors.js';
import { renderPhoto } from './jpeg-synth.adapter.js';
import type { PlannedPhoto } from './plan-types.js';

/** Written next to the photos; a name no planned path may take. */
export const MANIFEST_NAME = 'manifest-sha256.txt';
const DEFAULT_CONCURRENCY = 2; // the reference machine has two cores
const SAFE_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

export interface WriteCollectionOptions {
  /** Photos rendered at once. Default 2. */
  concurrency?: number;
  /** Called after each photo is on disk. */
  onProgress?(done: number, total: number): void;
}

export interface WriteCollectionResult {
  /** Photo files written (the manifest not included). */
  files: number;
  /** Their total size in bytes. */
  bytes: number;
}

/**
 * Renders `plan` into `dir`: one JPEG per entry at its relativePath, exact duplicates copied
 * byte for byte from the earlier file, each file's mtime set from the plan. Then writes
 * MANIFEST_NAME in `sha256sum` format ("<hex>  <path>", sorted by path) so the folder can be
 * checked with `sha256sum -c` and no Custody at all.
 *
 * Never overwrites: a file that already exists is an error, so use a fresh folder.
 */
export async function writeCollection(
  dir: string,
  plan: readonly PlannedPhoto[],
  opts: WriteCollectionOptions = {},
): Promise<WriteCollectionResult> {
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new DemoError(
      'DEMO_BAD_OPTION',
      `concurrency must be a positive integer, got ${concurrency}`,
    );
  }
  const sources = validatePlan(plan);
  const written: Promise<Written>[] = [];
  let done = 0;
  let nextPosition = 0;

  // Positions are claimed in order, so an original is always claimed before its copies.
  const worker = async (): Promise<void> => {
    while (nextPosition < plan.length) {
      const position = nextPosition++;
      const photo = plan[position]!;
      const source = sources[position];
      const job =
        source === undefined
          ? renderTo(dir, photo)
          : copyTo(dir, plan[source]!, photo, written[source]!);
      written[position] = job;
      await job;
      done += 1;
      opts.onProgress?.(done, plan.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, plan.length) }, worker));

  const results = await Promise.all(written);
  await writeManifest(dir, plan, results);
  return { files: plan.length, bytes: results.reduce((sum, r) => sum + r.size, 0) };
}

interface Written {
  digest: string;
  size: number;
}

async function renderTo(dir: string, p: PlannedPhoto): Promise<Written> {
  const target = await prepareTarget(dir, p);
  const jpeg = await renderPhoto(p);
  await writeFile(target, jpeg, { flag: 'wx' });
  await utimes(target, p.mtimeMs / 1000, p.mtimeMs / 1000);
  return { digest: toHex(sha256(jpeg)), size: jpeg.length };
}

/** An exact duplicate: the original's bytes, copied once the original is on disk. */
async function copyTo(
  dir: string,
  original: PlannedPhoto,
  p: PlannedPhoto,
  originalWritten: Promise<Written>,
): Promise<Written> {
  const target = await prepareTarget(dir, p);
  const result = await originalWritten;
  await copyFile(pathIn(dir, original), target, constants.COPYFILE_EXCL);
  await utimes(target, p.mtimeMs / 1000, p.mtimeMs / 1000);
  return result;
}

async function prepareTarget(dir: string, p: PlannedPhoto): Promise<string> {
  const target = pathIn(dir, p);
  await mkdir(dirname(target), { recursive: true });
  return target;
}

function pathIn(dir: string, p: PlannedPhoto): string {
  return join(dir, ...p.relativePath.split('/'));
}

async function writeManifest(
  dir: string,
  plan: readonly PlannedPhoto[],
  results: readonly Written[],
): Promise<void> {
  const entries = plan.map((p, i) => ({ path: p.relativePath, digest: results[i]?.digest ?? '' }));
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)); // code-unit order
  const lines = entries.map((e) => `${e.digest}  ${e.path}\n`);
  const target = join(dir, MANIFEST_NAME);
  await mkdir(dir, { recursive: true });
  await writeFile(target, lines.join(''), { flag: 'wx' });
  // give the manifest the newest photo's mtime, so the whole tree is reproducible
  const newest = plan.reduce((m, p) => Math.max(m, p.mtimeMs), 0);
  if (plan.length > 0) await utimes(target, newest / 1000, newest / 1000);
}

/**
 * Checks a plan before touching the disk, since callers may build or edit plans by hand:
 * safe relative paths (no '..', no absolute paths, no characters sha256sum would escape),
 * no two entries on one path, copies only of earlier entries. Returns, per position, the
 * position of the file a copy repeats.
 */
function validatePlan(plan: readonly PlannedPhoto[]): (number | undefined)[] {
  const positionOfIndex = new Map<number, number>();
  const paths = new Set<string>([MANIFEST_NAME]);
  return plan.map((p, position) => {
    const segments = p.relativePath.split('/');
    if (!segments.every((s) => SAFE_SEGMENT.test(s) && s !== '..')) {
      throw badPlan(`unsafe relative path ${JSON.stringify(p.relativePath)}`);
    }
    if (paths.has(p.relativePath)) throw badPlan(`two entries write ${p.relativePath}`);
    paths.add(p.relativePath);
    if (!Number.isFinite(p.mtimeMs)) throw badPlan(`${p.relativePath} has no valid mtimeMs`);
    if (positionOfIndex.has(p.index)) throw badPlan(`two entries have index ${p.index}`);
    positionOfIndex.set(p.index, position);
    if (p.duplicateOf === undefined) return undefined;
    const source = positionOfIndex.get(p.duplicateOf);
    if (source === undefined || source >= position) {
      throw badPlan(
        `${p.relativePath} copies index ${p.duplicateOf}, which is not earlier in the plan`,
      );
    }
    return source;
  });
}

function badPlan(message: string): DemoError {
  return new DemoError('DEMO_BAD_PLAN', message);
}

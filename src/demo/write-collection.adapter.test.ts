import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../core/index.js';
import { planCollection } from './collection-plan.js';
import type { PlannedPhoto } from './plan-types.js';
import { MANIFEST_NAME, writeCollection } from './write-collection.adapter.js';

let root = '';
let counter = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'custody-demo-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
const freshDir = () => join(root, `c${++counter}`);

const small = (p: PlannedPhoto): PlannedPhoto => ({ ...p, width: 160, height: 112 });
const plan = planCollection({ count: 20, seed: 'write-test', duplicateRate: 0.2 }).map(small);

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) =>
      join(e.parentPath, e.name)
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
    )
    .sort();
}

async function rejectionCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (e) {
    return hasCode(e, 'DEMO_BAD_PLAN')
      ? 'DEMO_BAD_PLAN'
      : hasCode(e, 'DEMO_BAD_OPTION')
        ? 'DEMO_BAD_OPTION'
        : String(e);
  }
  return undefined;
}

describe('writeCollection', () => {
  it('writes every photo, copies byte for byte, mtimes, and a correct sha256sum manifest', async () => {
    expect(plan.some((p) => p.duplicateOf !== undefined)).toBe(true);
    const dir = freshDir();
    const progress: number[] = [];
    const result = await writeCollection(dir, plan, {
      onProgress: (done, total) => progress.push(done / total),
    });

    expect(await listFiles(dir)).toEqual(
      [...plan.map((p) => p.relativePath), MANIFEST_NAME].sort(),
    );
    expect(progress).toHaveLength(plan.length);
    expect(progress.at(-1)).toBe(1);

    const manifest = (await readFile(join(dir, MANIFEST_NAME), 'utf8')).split('\n');
    expect(manifest.pop()).toBe(''); // ends with a newline
    const listed = manifest.map((line) => /^([0-9a-f]{64}) {2}(\S+)$/.exec(line));
    expect(listed.map((m) => m?.[2])).toEqual(plan.map((p) => p.relativePath).sort());

    let bytes = 0;
    for (const m of listed) {
      const content = await readFile(join(dir, m![2]!));
      bytes += content.length;
      expect(createHash('sha256').update(content).digest('hex')).toBe(m![1]);
    }
    expect(result).toEqual({ files: plan.length, bytes });

    for (const p of plan) {
      expect((await stat(join(dir, p.relativePath))).mtimeMs).toBeCloseTo(p.mtimeMs, -1);
      if (p.duplicateOf === undefined) continue;
      const original = plan[p.duplicateOf]!;
      const [copy, source] = await Promise.all([
        readFile(join(dir, p.relativePath)),
        readFile(join(dir, original.relativePath)),
      ]);
      expect(copy.equals(source)).toBe(true);
    }
  });

  it('gives the same tree twice, with any concurrency', async () => {
    const [a, b] = [freshDir(), freshDir()];
    await writeCollection(a, plan.slice(0, 8), { concurrency: 1 });
    await writeCollection(b, plan.slice(0, 8), { concurrency: 4 });
    const [ma, mb] = await Promise.all([
      readFile(join(a, MANIFEST_NAME), 'utf8'),
      readFile(join(b, MANIFEST_NAME), 'utf8'),
    ]);
    expect(ma).toBe(mb);
  });

  it('never overwrites an existing file', async () => {
    const dir = freshDir();
    await writeCollection(dir, plan.slice(0, 2));
    expect(await rejectionCode(writeCollection(dir, plan.slice(0, 2)))).toMatch(/EEXIST/);
  });

  it('refuses unsafe or inconsistent plans before writing anything', async () => {
    const first = plan[0]!;
    const bad: PlannedPhoto[][] = [
      [{ ...first, relativePath: '../escape.JPG' }],
      [{ ...first, relativePath: '/abs/x.JPG' }],
      [{ ...first, relativePath: 'a//b.JPG' }],
      [{ ...first, relativePath: 'with space.JPG' }],
      [{ ...first, relativePath: MANIFEST_NAME }],
      [first, { ...first, index: 1 }],
      [{ ...first, duplicateOf: 0 }],
      [
        { ...first, duplicateOf: 5 },
        { ...plan[1]!, index: 5 },
      ],
    ];
    for (const entries of bad) {
      const dir = freshDir();
      expect(await rejectionCode(writeCollection(dir, entries))).toBe('DEMO_BAD_PLAN');
      await expect(stat(dir)).rejects.toThrow(/ENOENT/);
    }
    expect(await rejectionCode(writeCollection(freshDir(), plan, { concurrency: 0 }))).toBe(
      'DEMO_BAD_OPTION',
    );
  });
});

// The sampling procedure, implemented twice: samples drawn here in TypeScript are redrawn by
// scripts/redraw-sample.py (standard-library Python, no Custody code) from the frame file, the
// seed and n alone, and must come out identical: members in draw order, frame digest and
// manifest digest. Needs python3; without it this file skips with the reason, except on CI.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createDrawStream,
  drawSimpleRandom,
  drawStratified,
  drawSystematic,
  type SampleDraw,
} from '../../src/examination/sampling/index.js';
import { isCi } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SCRIPT = path.resolve(HERE, '../../scripts/redraw-sample.py');
const SEED = 'c0ffee0ddba11a5ebadc0de5eed5a1dc0ffee0ddba11a5ebadc0de5eed5a1d00';

function pythonMissing(): string | null {
  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined) return `python3 not found (${probe.error.message})`;
  return probe.status === 0 ? null : `python3 --version exited with ${probe.status}`;
}
const SKIP_REASON = pythonMissing();
if (SKIP_REASON !== null) {
  if (isCi()) throw new Error(`CI=true requires python3, but: ${SKIP_REASON}`);
  console.warn(`[sample-redraw-python] skipped: ${SKIP_REASON}`);
}

/** Ids people and imports produce: scripts, astral characters, quotes, commas, inner spaces. */
const AWKWARD = [
  'صورة-0001',
  'صورة-0002',
  '\u{1F600}',
  '\uFF5E',
  '\u{10000}',
  '\uE000',
  'quote"and\\backslash',
  'comma,inside',
  ' leading space',
  'line\u2028separator',
  'e\u0301',
  'é',
];
const BIG = [
  ...Array.from({ length: 6000 }, (_, i) => `caesar-${String(i).padStart(5, '0')}`),
  ...AWKWARD,
];

interface Redrawn {
  frameDigest: string;
  manifestDigest: string;
  members: string[];
}

function redraw(args: string[]): Redrawn {
  const run = spawnSync('python3', [SCRIPT, '--digests', ...args], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONUTF8: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`redraw-sample.py failed: ${run.stderr}`);
  const lines = run.stdout.split('\n');
  expect(lines.pop()).toBe('');
  const [frameLine, manifestLine, ...members] = lines;
  return {
    frameDigest: frameLine?.replace(/^frame-digest /, '') ?? '',
    manifestDigest: manifestLine?.replace(/^manifest-digest /, '') ?? '',
    members,
  };
}

function expectSame(draw: SampleDraw, again: Redrawn): void {
  expect(again.members).toEqual(draw.members);
  expect(again.frameDigest).toBe(draw.frameDigest);
  expect(again.manifestDigest).toBe(draw.manifestDigest);
}

const csvField = (s: string): string => `"${s.replace(/"/g, '""')}"`;

describe.skipIf(SKIP_REASON !== null)('redraw-sample.py repeats the TypeScript draws', () => {
  let dir = '';
  let bigFile = '';
  let smallFile = '';

  beforeAll(async () => {
    dir = await makeTempDir('redraw');
    bigFile = path.join(dir, 'big.txt');
    smallFile = path.join(dir, 'small.txt');
    // Shuffled on purpose: the canonical order is the procedure's job, not the file's.
    await writeFile(bigFile, [...BIG].reverse().join('\n') + '\n');
    await writeFile(smallFile, AWKWARD.join('\r\n'));
  });

  it.each([0, 1, 2, 150, 835, BIG.length])('simple random sample, n = %i', (n) => {
    const draw = drawSimpleRandom(BIG, n, SEED);
    expectSame(draw, redraw(['--frame', bigFile, '--seed', SEED, '--n', String(n)]));
  });

  it.each([1, 7, 150, 835, BIG.length])('systematic sample, n = %i', (n) => {
    const draw = drawSystematic(BIG, n, SEED);
    const args = ['--frame', bigFile, '--seed', SEED, '--n', String(n), '--method', 'systematic'];
    expectSame(draw, redraw(args));
  });

  it('awkward ids, a CRLF file and a non-ASCII seed', () => {
    for (const n of [0, 5, AWKWARD.length]) {
      const seed = `بذرة-${n}`;
      expectSame(
        drawSimpleRandom(AWKWARD, n, seed),
        redraw(['--frame', smallFile, '--seed', seed, '--n', String(n)]),
      );
      expectSame(
        drawSystematic(AWKWARD, n, seed),
        redraw(['--frame', smallFile, '--seed', seed, '--n', String(n), '--method', 'systematic']),
      );
    }
  });

  it('stratified samples, proportional and with explicit sizes', async () => {
    const strata: Record<string, string[]> = { دمشق: [], Homs: [], 'comma, "quoted"': [] };
    const names = Object.keys(strata);
    // Unequal strata (about 6/11, 5/22, 5/22 of the frame), so remainders matter.
    const stratumOf = (i: number): string => names[i % 11 < 6 ? 0 : i % 2 === 0 ? 1 : 2] as string;
    BIG.forEach((id, i) => strata[stratumOf(i)]?.push(id));
    const strataFile = path.join(dir, 'strata.csv');
    const rows = Object.entries(strata).flatMap(([h, ids]) =>
      ids.map((id) => `${csvField(h)},${csvField(id)}`),
    );
    await writeFile(strataFile, rows.reverse().join('\r\n') + '\r\n');
    for (const total of [0, 150, 835]) {
      const draw = drawStratified(strata, { total }, SEED);
      expectSame(draw, redraw(['--strata', strataFile, '--seed', SEED, '--n', String(total)]));
    }
    const sizes = { دمشق: 100, Homs: 0, 'comma, "quoted"': 35 };
    const sizesFile = path.join(dir, 'sizes.csv');
    await writeFile(
      sizesFile,
      Object.entries(sizes)
        .map(([h, k]) => `${csvField(h)},${k}`)
        .join('\n'),
    );
    const draw = drawStratified(strata, { sizes }, SEED);
    expectSame(draw, redraw(['--strata', strataFile, '--seed', SEED, '--sizes', sizesFile]));
  });

  it('uniform() rejects the same values (m near 2^64/2049: about one value in 2049 rejected)', () => {
    // Real frames are far too small for rejection ever to happen, so call the functions directly.
    const m = Number((1n << 64n) / 2049n) + 1;
    const digest = drawSimpleRandom(AWKWARD, 0, SEED).frameDigest;
    const program = [
      'import importlib.util, sys',
      `spec = importlib.util.spec_from_file_location('r', sys.argv[1])`,
      'r = importlib.util.module_from_spec(spec); spec.loader.exec_module(r)',
      's = r.stream(sys.argv[2], sys.argv[3])',
      'print(*(r.uniform(s, int(sys.argv[4])) for _ in range(20000)))',
    ].join('\n');
    const run = spawnSync('python3', ['-c', program, SCRIPT, SEED, digest, String(m)], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    const stream = createDrawStream(SEED, digest);
    const ours = Array.from({ length: 20000 }, () => String(stream.uniform(m)));
    expect(run.stdout.trim().split(' ')).toEqual(ours);
  });

  it('the script refuses what the procedure refuses', () => {
    const run = spawnSync('python3', [SCRIPT, '--frame', smallFile, '--seed', SEED, '--n', '13']);
    expect(run.status).not.toBe(0);
  });
});

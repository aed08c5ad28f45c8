import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { drawSimpleRandom, drawSystematic, type SampleDraw } from './draw.js';
import { SamplingError } from './errors.js';

const UNITS = Array.from({ length: 10 }, (_, i) => `unit-${String(i + 1).padStart(2, '0')}`);
const SEED = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const DIGEST = 'c9847e2f9a42df2be22c846a9e797ba2c84a0bed8f7b6286d799b83a7f82e435';
const DRAWS = { simple: drawSimpleRandom, systematic: drawSystematic };

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof SamplingError) return e.code;
    throw e;
  }
  return 'no error';
}

function chiSquare(counts: readonly number[], expected: number): number {
  return counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
}

describe('the worked example of PROCEDURE.md', () => {
  it('simple random sample', () => {
    const draw = drawSimpleRandom([...UNITS].reverse(), 3, SEED);
    expect(draw).toMatchObject({
      method: 'simple',
      frameDigest: DIGEST,
      seed: SEED,
      frameSize: 10,
      n: 3,
    });
    expect(draw.members).toEqual(['unit-07', 'unit-10', 'unit-02']);
    expect(draw.sortedMembers).toEqual(['unit-02', 'unit-07', 'unit-10']);
    expect(draw.manifestDigest).toBe(
      '7f897c18c21affcb933c94b21f3a541cc8d2200354093e06090809b47155666f',
    );
  });

  it('systematic sample', () => {
    const draw = drawSystematic(UNITS, 3, SEED);
    expect(draw.members).toEqual(['unit-03', 'unit-06', 'unit-09']);
    expect(draw.manifestDigest).toBe(
      '4c6ae521dbd1558b6ed187b8e23176b6a482be8d72930a97fd44f4da0541fc24',
    );
  });

  it('the manifest digest is SHA-256 of the RFC 8785 manifest', () => {
    const draw = drawSimpleRandom(UNITS, 2, 'm');
    const json = `{"frameDigest":"${DIGEST}","members":${JSON.stringify(draw.members)},"method":"simple","seed":"m"}`;
    expect(draw.manifestDigest).toBe(createHash('sha256').update(json).digest('hex'));
  });
});

describe.each(Object.entries(DRAWS))('%s draws', (_method, draw) => {
  it('repeat exactly, whatever order the frame comes in', () => {
    const shuffled = [...UNITS.slice(5), ...UNITS.slice(0, 5)];
    expect(draw(shuffled, 4, 'again')).toEqual(draw(UNITS, 4, 'again'));
    const big = Array.from({ length: 1000 }, (_, i) => `id-${i}`);
    expect(draw(big, 4, 'again').members).not.toEqual(draw(big, 4, 'other').members);
  });

  it('change when the frame changes, even with the same seed', () => {
    const a = draw(UNITS, 4, 'same');
    const b = draw([...UNITS, 'unit-11'], 4, 'same');
    expect(b.frameDigest).not.toBe(a.frameDigest);
    expect(b.manifestDigest).not.toBe(a.manifestDigest);
  });

  it('take n = N as the whole frame, and n = 0 or N = 0 as nothing', () => {
    const all: SampleDraw = draw(UNITS, 10, 's');
    expect(all.sortedMembers).toEqual(UNITS);
    expect(new Set(all.members).size).toBe(10);
    expect(draw(UNITS, 0, 's').members).toEqual([]);
    const empty = draw([], 0, 's');
    expect(empty).toMatchObject({ members: [], frameSize: 0, n: 0 });
    expect(empty.frameDigest).toBe(createHash('sha256').update('[]').digest('hex'));
  });

  it('refuse n > N, a bad n and a bad seed', () => {
    expect(code(() => draw(UNITS, 11, 's'))).toBe('SAMPLE_SIZE_EXCEEDS_FRAME');
    expect(code(() => draw([], 1, 's'))).toBe('SAMPLE_SIZE_EXCEEDS_FRAME');
    expect(code(() => draw(UNITS, -1, 's'))).toBe('SAMPLE_SIZE_INVALID');
    expect(code(() => draw(UNITS, 2.5, 's'))).toBe('SAMPLE_SIZE_INVALID');
    expect(code(() => draw(UNITS, 2, ''))).toBe('SAMPLE_SEED_INVALID');
    expect(code(() => draw(UNITS, 2, 'a\u0000b'))).toBe('SAMPLE_SEED_INVALID');
  });

  it('give every unit the same chance (chi-square over 3000 seeds)', () => {
    const counts = new Array<number>(10).fill(0);
    for (let s = 0; s < 3000; s++) {
      for (const id of draw(UNITS, 3, `chi-${s}`).members) counts[UNITS.indexOf(id)]! += 1;
    }
    expect(chiSquare(counts, 900)).toBeLessThan(27.88); // 9 degrees of freedom, p = 0.001
  });
});

describe('simple random samples', () => {
  it('are uniform in each draw position and over pairs', () => {
    const first = new Array<number>(10).fill(0);
    const pairs = new Map<string, number>();
    for (let s = 0; s < 4500; s++) {
      const [a, b] = drawSimpleRandom(UNITS, 2, `pos-${s}`).sortedMembers as [string, string];
      first[UNITS.indexOf(drawSimpleRandom(UNITS, 1, `first-${s}`).members[0] as string)]! += 1;
      pairs.set(`${a}+${b}`, (pairs.get(`${a}+${b}`) ?? 0) + 1);
    }
    expect(chiSquare(first, 450)).toBeLessThan(27.88);
    expect(pairs.size).toBe(45);
    expect(chiSquare([...pairs.values()], 100)).toBeLessThan(76.08); // 44 df, p = 0.001
  });
});

describe('systematic samples', () => {
  it('are n distinct units spaced N/n apart in canonical order', () => {
    const frame = Array.from({ length: 835 }, (_, i) => `img-${String(i).padStart(4, '0')}`);
    for (const n of [1, 2, 3, 150, 417, 834, 835]) {
      const draw = drawSystematic(frame, n, `sys-${n}`);
      const idx = draw.members.map((id) => frame.indexOf(id));
      expect(new Set(idx).size).toBe(n);
      idx.slice(1).forEach((i, j) => {
        expect(i - (idx[j] as number)).toBeGreaterThanOrEqual(Math.floor(835 / n));
        expect(i - (idx[j] as number)).toBeLessThanOrEqual(Math.ceil(835 / n));
      });
    }
  });
});

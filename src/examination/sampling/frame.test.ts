import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SamplingError } from './errors.js';
import { canonicalFrame, compareCodePoints, dedupeFrame, frameDigest } from './frame.js';

const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const H1 = 'a'.repeat(64);
const H2 = 'b'.repeat(64);

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof SamplingError) return e.code;
    throw e;
  }
  return 'no error';
}

describe('canonical order and frame digest', () => {
  it('sorts by code point, as UTF-8 bytes (and Python) do, not by UTF-16 code units', () => {
    const ids = ['\uFF5E', '\u{1F600}', 'z', 'Z', 'é', 'e\u0301', '\u{10000}', '\uE000', 'ب', 'a'];
    const byBytes = [...ids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect([...ids].sort(compareCodePoints)).toEqual(byBytes);
    expect([...ids].sort()).not.toEqual(byBytes); // the default sort would be wrong here
  });

  it('is SHA-256 of the RFC 8785 array, whatever order it is given in', () => {
    expect(frameDigest(['b', 'a'])).toBe(sha('["a","b"]'));
    expect(frameDigest([])).toBe(sha('[]'));
    expect(frameDigest(['q"\\', 'ب'])).toBe(sha('["q\\"\\\\","ب"]'));
  });

  it('refuses empty, unprintable, non-string and repeated ids', () => {
    expect(code(() => canonicalFrame(['a', '']))).toBe('SAMPLE_FRAME_INVALID');
    expect(code(() => canonicalFrame(['a\nb']))).toBe('SAMPLE_FRAME_INVALID');
    expect(code(() => canonicalFrame(['\u0085']))).toBe('SAMPLE_FRAME_INVALID');
    expect(code(() => canonicalFrame(['\uD800x']))).toBe('SAMPLE_FRAME_INVALID');
    expect(code(() => canonicalFrame([3 as unknown as string]))).toBe('SAMPLE_FRAME_INVALID');
    expect(code(() => canonicalFrame('ab' as unknown as string[]))).toBe('SAMPLE_FRAME_INVALID');
    expect(code(() => canonicalFrame(['a', 'b', 'a']))).toBe('SAMPLE_FRAME_INVALID');
  });
});

describe('dedupeFrame', () => {
  it('keeps the smallest id per object and reports what was merged', () => {
    const result = dedupeFrame([
      { id: 'img-3', objectSha256: H1 },
      { id: 'img-1', objectSha256: H1 },
      { id: 'img-2', objectSha256: H2 },
      { id: 'img-0', objectSha256: H1 },
    ]);
    expect(result.frame).toEqual(['img-0', 'img-2']);
    expect(result.merged).toEqual([
      { objectSha256: H1, kept: 'img-0', dropped: ['img-1', 'img-3'] },
    ]);
  });

  it('changes nothing when every object is distinct, and refuses bad input', () => {
    expect(dedupeFrame([{ id: 'x', objectSha256: H1 }])).toEqual({ frame: ['x'], merged: [] });
    expect(dedupeFrame([])).toEqual({ frame: [], merged: [] });
    expect(code(() => dedupeFrame([{ id: 'x', objectSha256: 'AB' }]))).toBe('SAMPLE_FRAME_INVALID');
    const twice = [
      { id: 'x', objectSha256: H1 },
      { id: 'x', objectSha256: H2 },
    ];
    expect(code(() => dedupeFrame(twice))).toBe('SAMPLE_FRAME_INVALID');
  });
});

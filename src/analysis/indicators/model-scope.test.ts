import { describe, expect, it } from 'vitest';
import { alter, cleanCollection, flipBits, NOW, prng, shotOf } from './clean-collection.fixture.js';
import { computeIndicators } from './compute.js';
import { modelKey } from './facts-keys.js';
import type { ImageFacts } from './image-facts.js';
import { MODEL_SCOPED_CODES } from './model-scope.js';

const scoped = (codes: readonly string[]): string[] =>
  codes.filter((c) => (MODEL_SCOPED_CODES as readonly string[]).includes(c));

/** The clean collection with one Nikon image altered per model-scoped indicator (and a Canon one). */
function alteredCollection(): ImageFacts[] {
  let c = cleanCollection();
  const rand = prng(7);
  const a = (i: number): ImageFacts => shotOf(c, 'A', i);
  c = alter(c, a(0), { software: 'Adobe Photoshop 25.0' });
  c = alter(c, a(1), { width: 3000, height: 2000 });
  c = alter(c, a(2), { quantDigest: 'f'.repeat(64), estimatedQuality: 85 });
  c = alter(c, a(3), { thumbnailPdq: flipBits(a(3).pdq ?? '0'.repeat(64), 120, rand) });
  c = alter(c, a(39), {
    dateTimeOriginal: '2025:01:10 10:00:00',
    createDate: '2025:01:10 10:00:00',
    modifyDate: '2025:01:10 10:00:00',
  });
  c = alter(c, a(10), { modifyDate: '2030:01:01 00:00:00' });
  c = alter(c, shotOf(c, 'B', 5), { software: 'GIMP 2.10' });
  return c;
}

describe('MODEL_SCOPED_CODES', () => {
  it("judge every image from its camera model's images exactly as from the whole collection", () => {
    const c = alteredCollection();
    const raised = new Set<string>();
    for (const f of c) {
      const whole = scoped(computeIndicators(f, c, { now: NOW }).map((i) => i.code));
      const key = modelKey(f);
      const peers = key === null ? [f] : c.filter((g) => modelKey(g) === key);
      const alone = computeIndicators(f, peers, { now: NOW });
      expect(scoped(alone.map((i) => i.code)), f.sha256).toEqual(whole);
      expect(alone.filter((i) => whole.includes(i.code))).toEqual(
        computeIndicators(f, c, { now: NOW }).filter((i) => whole.includes(i.code)),
      );
      for (const code of whole) raised.add(code);
    }
    // Not vacuous: the alterations raise every model-scoped code somewhere.
    expect([...raised].sort()).toEqual([...MODEL_SCOPED_CODES].sort());
  });

  it('leaves out a code that reads beyond the model (EXIF_MISSING reads folders and name patterns)', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 7);
    const altered = alter(c, target, {
      make: null,
      model: null,
      dateTimeOriginal: null,
      exifPresent: false,
    });
    const t = altered.find((f) => f.sha256 === target.sha256)!;
    expect(computeIndicators(t, altered, { now: NOW }).map((i) => i.code)).toContain(
      'EXIF_MISSING',
    );
    expect(computeIndicators(t, [t], { now: NOW }).map((i) => i.code)).not.toContain(
      'EXIF_MISSING',
    );
    expect(MODEL_SCOPED_CODES).not.toContain('EXIF_MISSING');
  });
});

// Generated grey descriptors for the grey-descriptor index (src/analysis/similarity/grey-index.ts):
// its unit tests and bench/grey-index.bench.ts draw the same corpus.
import { GREY_DESCRIPTOR_GRID } from '../../src/analysis/similarity/grey-candidates.js';
import { lcg, turnPermutations } from '../../src/analysis/similarity/grey-index-quantiser.js';

/** The index's own seeded generator, for the bench's random queries too. */
export { lcg };

const D = GREY_DESCRIPTOR_GRID * GREY_DESCRIPTOR_GRID;

/**
 * n unit descriptors (mean removed), uniform on the sphere, where every tenth is a turned or
 * flipped copy of an earlier one with noise (correlation about 0.99 under the right turn).
 */
export function plantedDescriptors(
  n: number,
  seed: number,
): { desc: Float32Array; planted: Map<number, number> } {
  const rnd = lcg(seed);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  const perms = turnPermutations(GREY_DESCRIPTOR_GRID);
  const desc = new Float32Array(n * D);
  const planted = new Map<number, number>();
  const v = new Float64Array(D);
  for (let i = 0; i < n; i++) {
    const from = i % 10 === 9 ? Math.floor(rnd() * i) : -1;
    const p = perms[1 + Math.floor(rnd() * 7)]!;
    for (let c = 0; c < D; c++)
      v[c] = from < 0 ? gauss() : desc[from * D + p[c]!]! + (0.15 * gauss()) / Math.sqrt(D);
    const m = v.reduce((s, x) => s + x, 0) / D;
    const norm = Math.sqrt(v.reduce((s, x) => s + (x - m) ** 2, 0));
    for (let c = 0; c < D; c++) desc[i * D + c] = (v[c]! - m) / norm;
    if (from >= 0) planted.set(i, from);
  }
  return { desc, planted };
}

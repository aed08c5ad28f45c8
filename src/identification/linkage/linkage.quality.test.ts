// Linkage quality on synthetic reports (bench/identification-linkage-corpus.ts): blocking recall,
// precision and recall of the pairs, and EM's m against the m counted with the truth. A smaller
// population than the bench (`node dist/bench/identification-linkage.bench.js`), with bounds
// below the figures measured so that a regression fails and noise does not: the corpus is seeded.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  blockingRecall,
  scoreClusterList,
  scoreClusters,
  scorePairs,
} from '../../../bench/identification-linkage.bench.js';
import { syntheticReports, truePairs } from '../../../bench/identification-linkage-corpus.js';
import {
  LINK_FIELDS,
  MISSING,
  compareRecords,
  linkRecords,
  prepareRecord,
  type LinkageResult,
} from './index.js';

const corpus = syntheticReports(600, 1000, 'linkage-quality-v1');
const truth = truePairs(corpus.truth);
let result: LinkageResult;

/** Linkage of 1,000 reports takes seconds, more on a loaded machine: no timing is asserted. */
const SLOW = 120_000;

beforeAll(() => {
  result = linkRecords(corpus.records, { uSampleSize: 20_000, minPairProbability: 0 });
}, SLOW);

describe('linkage on synthetic reports', () => {
  it(
    'finds most true pairs by blocking, each rule adding to the others',
    () => {
      const recall = blockingRecall(corpus.records, truth);
      expect(truth.size).toBeGreaterThan(300);
      expect(recall.union).toBeGreaterThanOrEqual(0.93);
      // Here blocking misses 1 of 529 true pairs. The rules below find pairs no other rule finds
      // on 20,000 reports (the tuning seed: bench/identification-linkage-quality.md, session 24),
      // none among these 1,000: they may only match the union here; every other rule adds to it.
      const onlyOnMore = [
        'family+birth_year',
        'arrest_day',
        'given+arrest_month',
        'arrest_place+arrest_month',
        'mother+arrest_month',
        'family+arrest_month',
        'family+origin',
      ].map((rule) => `union without ${rule}`);
      for (const [rule, r] of Object.entries(recall)) {
        if (onlyOnMore.includes(rule)) expect(r).toBeLessThanOrEqual(recall.union ?? 0);
        else if (rule !== 'union') expect(r).toBeLessThan(recall.union ?? 0);
      }
      expect(recall.union).toBeGreaterThanOrEqual(0.995);
    },
    SLOW,
  );

  it(
    'proposes clusters by consensus at the default threshold better than the closure of the pairs, and than the pairs',
    () => {
      const consensus = scoreClusterList(result.clusters, truth, 0.05);
      const closure = scoreClusters(result.pairs, truth, 0.05);
      const pairs = scorePairs(
        new Set(result.pairs.filter((p) => p.probability >= 0.2).map((p) => `${p.a}|${p.b}`)),
        truth,
        0.2,
      );
      // Measured: consensus 0.984, closure 0.904, pairs at 0.2 0.971.
      expect(consensus.f1).toBeGreaterThanOrEqual(0.97);
      expect(consensus.f1).toBeGreaterThan(closure.f1);
      expect(consensus.f1).toBeGreaterThan(pairs.f1);
    },
    SLOW,
  );

  it(
    'proposes pairs with high precision at 0.9 and good recall at 0.5',
    () => {
      const at = (t: number) =>
        scorePairs(
          new Set(result.pairs.filter((p) => p.probability >= t).map((p) => `${p.a}|${p.b}`)),
          truth,
          t,
        );
      const high = at(0.9);
      const mid = at(0.5);
      expect(high.precision).toBeGreaterThanOrEqual(0.95);
      expect(mid.recall).toBeGreaterThanOrEqual(0.8);
      expect(mid.f1).toBeGreaterThanOrEqual(0.85);
      expect(result.model.converged).toBe(true);
    },
    SLOW,
  );

  it(
    "fits m close to the m counted among the true pairs (the model's assumption of independence aside)",
    () => {
      const records = corpus.records.map(prepareRecord);
      const byId = new Map(records.map((r) => [r.id, r]));
      const counts = LINK_FIELDS.map((f) => new Array<number>(f.levels.length).fill(0));
      for (const pair of truth) {
        const [a, b] = pair.split('|');
        const levels = compareRecords(byId.get(a ?? '') as never, byId.get(b ?? '') as never);
        levels.forEach((k, f) => {
          if (k !== MISSING) (counts[f] as number[])[k] = ((counts[f] as number[])[k] ?? 0) + 1;
        });
      }
      // Measured (seeded corpus): every level of every field within 0.09 of its counted share,
      // except the grandfather's jw_mid (0.15 fitted, 0.01 counted): the sparsest field (40% of
      // reports each side), where a rare level absorbs non-matches EM cannot tell apart. The names
      // depend on each other (one report's spelling habits), which the model assumes away.
      const deviations: string[] = [];
      for (const [f, field] of LINK_FIELDS.entries()) {
        const row = counts[f] as number[];
        const total = row.reduce((a, b) => a + b, 0);
        const fitted = result.model.fields[f]?.levels ?? [];
        const bound = field.name === 'grandfather' ? 0.16 : 0.1;
        row.forEach((c, k) => {
          const m = fitted[k]?.m ?? 0;
          if (Math.abs(c / total - m) >= bound) {
            deviations.push(
              `${field.name} ${field.levels[k]}: ${(c / total).toFixed(3)} counted, ${m.toFixed(3)} fitted`,
            );
          }
        });
      }
      expect(deviations).toEqual([]);
    },
    SLOW,
  );
});

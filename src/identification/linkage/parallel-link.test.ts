// linkRecordsParallel against linkRecords: the same result, field for field, whatever the number
// of threads. The workers load the compiled compare-all.js: run `npm run build` first.
import { describe, expect, it } from 'vitest';
import { syntheticReports } from '../../../bench/identification-linkage-corpus.js';
import { linkRecords } from './link.js';
import { linkRecordsParallel } from './parallel-link.adapter.js';

const SLOW = 120_000;
const corpus = syntheticReports(300, 500, 'parallel-link-v1');
const options = { uSampleSize: 5_000, minPairProbability: 0 };

describe('linkage on worker threads', () => {
  it(
    'gives the single-threaded result on two threads and on three (an uneven split)',
    async () => {
      const single = linkRecords(corpus.records, options);
      expect(single.blocking.candidate_pairs).toBeGreaterThan(100);
      expect(single.clusters.length).toBeGreaterThan(10);
      for (const threads of [2, 3]) {
        const parallel = await linkRecordsParallel(corpus.records, options, { threads });
        expect(parallel).toEqual(single);
      }
    },
    SLOW,
  );

  it(
    'gives it too when the input comes in another order',
    async () => {
      const single = linkRecords(corpus.records, options);
      const reversed = await linkRecordsParallel([...corpus.records].reverse(), options, {
        threads: 2,
      });
      expect(reversed).toEqual(single);
    },
    SLOW,
  );
});

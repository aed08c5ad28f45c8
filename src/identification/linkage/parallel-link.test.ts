// linkRecordsParallel against linkRecords: the same result, field for field, whatever the number
// of threads. The workers load the compiled compare-all.js: run `npm run build` first.
import { describe, expect, it } from 'vitest';
import { syntheticReports } from '../../../bench/identification-linkage-corpus.js';
import { linkRecords } from './link.js';
import { PARALLEL_FROM, linkRecordsFor, linkRecordsParallel, linkageMode } from './parallel-link.adapter.js';

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

  it(
    'linkRecordsFor (the links port of the app) is on threads from PARALLEL_FROM records on, and gives the same result either way',
    async () => {
      expect([linkageMode(PARALLEL_FROM - 1), linkageMode(PARALLEL_FROM), linkageMode(20_000)]).toEqual(['single', 'parallel', 'parallel']);
      expect(linkageMode(500, 100)).toBe('parallel');
      const single = linkRecords(corpus.records, options);
      expect(await linkRecordsFor(corpus.records, options, { from: 100, threads: 2 })).toEqual(single);
      expect(await linkRecordsFor(corpus.records, options)).toEqual(single);
    },
    SLOW,
  );
});

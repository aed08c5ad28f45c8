// Longest file first. The run's two workers take files from one queue in this order; the longest
// files start first so that the run does not end with one worker alone on a long file while the
// other idles. Vitest's own order uses the durations of the last run on this machine (its cache),
// which a fresh CI clone does not have: then it falls back to file size. So the durations come from
// a committed list, test-durations.json ("project:path" → ms of a whole run; refresh it with
// `node test/support/update-test-durations.mjs` after a full run). A file the list does not know
// (a new one) goes first: it may be long, and a short one costs nothing there.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import durations from './test-durations.json' with { type: 'json' };

const known: Readonly<Record<string, number>> = durations;

export class LongestFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const key = (f: TestSpecification): string => `${f.project.name}:${relative(root, f.moduleId)}`;
    const ms = (f: TestSpecification): number => known[key(f)] ?? Number.POSITIVE_INFINITY;
    return Promise.resolve(
      [...files].sort((a, b) => ms(b) - ms(a) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)),
    );
  }
}

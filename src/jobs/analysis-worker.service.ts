import type { Archive } from '../app.js';
import { previewPaths as previewPathsIn, type PreviewPaths } from '../analysis/image/preview-cache.adapter.js';
import { analyzeImage, ANALYZER } from '../analysis/image/image-analysis.service.js';
import { isAnalysable } from './analyze-image.job.js';
import type { EntryDraft } from '../ledger/index.js';
import type { JobRepository } from './job.repository.js';

export interface AnalyzeSummary {
  done: number;
  skipped: number;
  failed: { sha256: string; error: string }[];
  remaining: number;
}

// Measured (bench/analysis-in-flight.ts, 400 warm 6–12 MP files): 2 in flight kept 1.48 cores
// busy (30.9 img/s), 4 kept 1.76 (36.3 img/s) for +13 MB.
const CONCURRENCY = 4;

/**
 * Runs the pending analysis jobs. Each success is one 'metadata extraction' ledger entry tied to
 * the object's SHA-256; a job whose object already has a result from this analyzer is skipped,
 * so running twice is harmless. Results are committed in batches, in the writer's lock.
 */
export async function runAnalysisJobs(
  archive: Archive,
  jobs: JobRepository,
  opts: { limit?: number; onProgress?: (done: number, pending: number) => void } = {},
): Promise<AnalyzeSummary> {
  await jobs.resetRunning();
  const summary: AnalyzeSummary = { done: 0, skipped: 0, failed: [], remaining: 0 };
  const deps = {
    readObject: (sha: string) => archive.store.readObject(sha),
    previewPaths: (sha: string, size: number) => previewPaths(archive, sha, size),
    maxPixels: archive.config.imageMaxPixels,
  };
  const limit = opts.limit ?? Infinity;
  let handled = 0;
  while (handled < limit) {
    const batch = await jobs.claim(Math.min(32, limit - handled));
    if (batch.length === 0) break;
    handled += batch.length;
    const drafts: { id: string; draft: EntryDraft }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < batch.length) {
          const job = batch[next++];
          if (job === undefined) break;
          const existing = await archive.index.getAnalysis(job.sha256);
          if (
            (existing !== undefined && existing.analyzer === ANALYZER) ||
            !isAnalysable(job.media_type) ||
            !(await archive.store.has(job.sha256))
          ) {
            await jobs.finish(job.id, 'skipped');
            summary.skipped++;
            continue;
          }
          try {
            const details = await analyzeImage(deps, job.sha256, job.media_type);
            drafts.push({
              id: job.id,
              draft: {
                actor: archive.config.actor,
                type: 'metadata extraction',
                items: [],
                objects: [job.sha256],
                details,
              },
            });
          } catch (e) {
            const error = e instanceof Error ? e.message : String(e);
            summary.failed.push({ sha256: job.sha256, error });
            await jobs.finish(job.id, 'failed', error);
          }
        }
      }),
    );
    if (drafts.length > 0) await archive.commit(drafts.map((d) => d.draft));
    for (const d of drafts) await jobs.finish(d.id, 'done');
    summary.done += drafts.length;
    opts.onProgress?.(summary.done, (await jobs.counts()).pending);
  }
  summary.remaining = (await jobs.counts()).pending;
  return summary;
}

/** Where an object's derived previews live: apart from the evidence, regenerable (analysis/image/preview-cache). */
export function previewPaths(archive: Archive, sha256: string, size: number): PreviewPaths {
  return previewPathsIn(archive.config.archiveDir, sha256, size);
}

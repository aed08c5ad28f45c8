import type { Config } from '../config/index.js';
import { CustodyError, sha256, toHex } from '../core/index.js';
import type { ArchiveIndexRepository } from '../db/archive-index.repository.js';
import type { JobsTable } from '../db/index.js';
import { previewPaths as previewPathsIn, type PreviewPaths } from '../analysis/image/index.js';
import { analyzeImage, ANALYZER } from '../analysis/image/image-analysis.service.js';
import { isAnalysable } from './analyze-image.job.js';
import type { EntryDraft } from '../ledger/index.js';
import type { FsObjectStore } from '../store/fs-store.adapter.js';
import { StoreError } from '../store/index.js';
import type { JobRepository } from './job.repository.js';

export interface AnalyzeSummary {
  done: number;
  skipped: number;
  /** `code`: the stable code of a Custody error (STORE_DIGEST_MISMATCH…), null for others. */
  failed: { sha256: string; error: string; code: string | null }[];
  remaining: number;
}

/** What the analysis worker reads and writes: the objects, one index lookup, the ledger commit. */
export interface AnalysisWorkerPorts {
  readonly config: Pick<Config, 'actor' | 'archiveDir' | 'imageMaxPixels'>;
  readonly store: Pick<FsObjectStore, 'readObject' | 'has'>;
  readonly index: Pick<ArchiveIndexRepository, 'getAnalysis'>;
  /** Objects durable → ledger append → index (Archive.commit). */
  commit(drafts: readonly EntryDraft[]): Promise<unknown>;
}

export type AnalysisJobQueue = Pick<JobRepository, 'resetRunning' | 'claim' | 'finish' | 'counts'>;

export interface AnalyzeOptions {
  limit?: number;
  onProgress?: (done: number, pending: number) => void;
  /**
   * Called when the queue is empty: resolves true once more jobs may have been queued (intake
   * committed more objects), false when none will come. Without it the run ends at an empty queue.
   */
  more?: () => Promise<boolean>;
}

// Measured (bench/analysis-in-flight.ts, 400 warm 6–12 MP files): 2 in flight kept 1.48 cores
// busy (30.9 img/s), 4 kept 1.76 (36.3 img/s) for +13 MB.
const CONCURRENCY = 4;
/** Jobs claimed, and results committed as one ledger append, at a time. */
const BATCH = 32;

interface Batch {
  left: number;
  drafts: { id: string; draft: EntryDraft }[];
  /** Resolves when every job of the batch has been analysed (or the run has ended). */
  analysed: Promise<void>;
  markAnalysed: () => void;
}

function newBatch(size: number): Batch {
  let markAnalysed = (): void => undefined;
  const analysed = new Promise<void>((resolve) => (markAnalysed = resolve));
  return { left: size, drafts: [], analysed, markAnalysed };
}

/**
 * Runs the pending analysis jobs. Each success is one 'metadata extraction' ledger entry tied to
 * the object's SHA-256; a job whose object already has a result from this analyzer is skipped,
 * so running twice is harmless. Results are committed in batches of 32, in the writer's lock.
 *
 * The analyses stay CONCURRENCY in flight across batches: a batch's commit (ledger append with
 * its fsyncs, index transaction) runs while the next batch is analysed, one commit at a time and
 * in order, so the decoder never waits for the disk (issue 14: keep the decoder busy).
 */
export async function runAnalysisJobs(
  archive: AnalysisWorkerPorts,
  jobs: AnalysisJobQueue,
  opts: AnalyzeOptions = {},
): Promise<AnalyzeSummary> {
  await jobs.resetRunning();
  const summary: AnalyzeSummary = { done: 0, skipped: 0, failed: [], remaining: 0 };
  const deps = {
    readObject: (sha: string) => readChecked(archive, sha),
    previewPaths: (sha: string, size: number) => previewPaths(archive, sha, size),
    maxPixels: archive.config.imageMaxPixels,
  };
  const limit = opts.limit ?? Infinity;
  const queue: { job: JobsTable; batch: Batch }[] = [];
  let claimed = 0;
  let exhausted = false;
  let claiming: Promise<void> | null = null;
  /**
   * The commits, chained in the order the batches were claimed: each waits for the one before it
   * and for its own batch's analyses, so a small batch claimed later and analysed first still
   * commits after the larger one before it. Never rejects (a failure is kept in `fault`).
   */
  let committing: Promise<void> = Promise.resolve();
  /** Batches claimed and not yet committed, oldest first. */
  const uncommitted: { batch: Batch; committed: Promise<void> }[] = [];
  let fault: { error: unknown } | null = null;

  const claimMore = async (): Promise<void> => {
    // Two batches' results at most wait for the disk; then the analysis waits for it.
    while (uncommitted.length >= 2 && fault === null) await uncommitted[0]!.committed;
    while (fault === null) {
      if (claimed >= limit) break;
      const got = await jobs.claim(Math.min(BATCH, limit - claimed));
      if (got.length > 0) {
        claimed += got.length;
        const batch = newBatch(got.length);
        committing = committing
          .then(() => batch.analysed)
          .then(() => (fault === null ? commitBatch(batch) : undefined))
          .catch((e: unknown) => {
            fault ??= { error: e };
          })
          // The chain runs in claim order, so the batch done is the oldest.
          .finally(() => uncommitted.shift());
        uncommitted.push({ batch, committed: committing });
        for (const job of got) queue.push({ job, batch });
        return;
      }
      if (opts.more === undefined || !(await opts.more())) break;
    }
    exhausted = true;
  };
  const next = async (): Promise<{ job: JobsTable; batch: Batch } | undefined> => {
    while (queue.length === 0 && !exhausted && fault === null) {
      claiming ??= claimMore().finally(() => (claiming = null));
      await claiming;
    }
    return fault === null ? queue.shift() : undefined;
  };
  const commitBatch = async (batch: Batch): Promise<void> => {
    if (batch.drafts.length > 0) await archive.commit(batch.drafts.map((d) => d.draft));
    for (const d of batch.drafts) await jobs.finish(d.id, 'done');
    summary.done += batch.drafts.length;
    opts.onProgress?.(summary.done, (await jobs.counts()).pending);
  };
  const analyse = async (job: JobsTable, batch: Batch): Promise<void> => {
    const existing = await archive.index.getAnalysis(job.sha256);
    if (
      (existing !== undefined && existing.analyzer === ANALYZER) ||
      !isAnalysable(job.media_type) ||
      !(await archive.store.has(job.sha256))
    ) {
      await jobs.finish(job.id, 'skipped');
      summary.skipped++;
      return;
    }
    try {
      const details = await analyzeImage(deps, job.sha256, job.media_type);
      batch.drafts.push({
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
      summary.failed.push({
        sha256: job.sha256,
        error,
        code: e instanceof CustodyError ? String(e.code) : null,
      });
      await jobs.finish(job.id, 'failed', error);
    }
  };

  const outcomes = await Promise.allSettled(
    Array.from({ length: CONCURRENCY }, async () => {
      try {
        for (let t = await next(); t !== undefined; t = await next()) {
          const { job, batch } = t;
          await analyse(job, batch);
          if (--batch.left === 0) batch.markAnalysed();
        }
      } catch (e) {
        // A fault (database, store): the other workers stop at their next job.
        fault ??= { error: e };
      }
    }),
  );
  // After a fault some batches were left part analysed: release their place in the chain, whose
  // commits are skipped once there is a fault.
  for (const u of uncommitted) u.batch.markAnalysed();
  await committing;
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (fault !== null) throw (fault as { error: unknown }).error;
  if (failed !== undefined) throw failed.reason;
  summary.remaining = (await jobs.counts()).pending;
  return summary;
}

/**
 * The object's bytes, checked against its name before anything is computed from them: the store
 * is files in the archive folder, which anyone may edit, and the analysis entry is signed as a
 * statement about the object the ledger names. A mismatch fails the job (nothing is recorded);
 * `custody verify` names the damaged object.
 */
async function readChecked(archive: AnalysisWorkerPorts, sha: string): Promise<Buffer> {
  const bytes = await archive.store.readObject(sha);
  if (toHex(sha256(bytes)) !== sha)
    throw new StoreError(
      'STORE_DIGEST_MISMATCH',
      `object ${sha} does not hash to its name in the store: not analysed`,
      {
        details: { sha256: sha },
      },
    );
  return bytes;
}

/** Where an object's derived previews live: apart from the evidence, regenerable (analysis/image/preview-cache). */
export function previewPaths(
  archive: { readonly config: Pick<Config, 'archiveDir'> },
  sha256: string,
  size: number,
): PreviewPaths {
  return previewPathsIn(archive.config.archiveDir, sha256, size);
}

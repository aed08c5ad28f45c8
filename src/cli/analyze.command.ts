import { decodeOneThreadPerImage } from '../analysis/image/image-decode.adapter.js';
import { isAnalysable } from '../jobs/index.js';
import { runAnalysisJobs } from '../jobs/analysis-worker.service.js';
import { parseNonNegativeInt, printJson, str, type Command } from './command.js';
import { wantsJson, withArchive } from './context.js';
import { terminalText as tt } from './terminal-text.js';
import { progressLine } from './progress.js';

export const analyzeCommand: Command = {
  name: 'analyze',
  summary: 'run pending image analysis: metadata, JPEG structure, PDQ, crop signal, previews',
  usage: 'custody analyze [--limit N] [--max-image-pixels N] [--json]',
  options: { limit: { type: 'string' }, 'max-image-pixels': { type: 'string' } },
  async run(args, io) {
    const limitText = str(args, 'limit');
    const limit = limitText === undefined ? undefined : parseNonNegativeInt(limitText, '--limit');
    const summary = await withArchive(args, io, 'write', 'analyze', async (archive) => {
      const queued = await archive.jobs.enqueueMissing(isAnalysable);
      const line = progressLine(io, args);
      const progress = line === undefined ? undefined : (done: number, pending: number) => line.report('analysed', done, done + pending);
      await decodeOneThreadPerImage(); // four images in flight keep the cores busy
      const s = await runAnalysisJobs(archive, archive.jobs, {
        ...(limit === undefined ? {} : { limit }),
        ...(progress === undefined ? {} : { onProgress: progress }),
      });
      line?.end();
      return { ...s, queued };
    });
    if (wantsJson(args)) printJson(io, summary);
    else {
      for (const f of summary.failed) io.stdout(`  ! ANALYSIS_FAILED  ${f.sha256}: ${tt(f.error)}\n`);
      io.stdout(
        `analysed ${summary.done}, skipped ${summary.skipped}, failed ${summary.failed.length}, still pending ${summary.remaining}\n`,
      );
    }
    return summary.failed.length > 0 ? 1 : 0;
  },
};

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { ArchiveError } from '../archive/errors.js';
import { resolveObject } from '../archive/withdrawal.service.js';
import { decodeForAnalysis, writePreviews } from '../analysis/image/image-decode.adapter.js';
import { previewPaths } from '../jobs/analysis-worker.service.js';
import { flag, parseNonNegativeInt, printJson, str, UsageError, type Command } from './command.js';
import { wantsJson, withArchive } from './context.js';

export const previewCommand: Command = {
  name: 'preview',
  summary:
    'path of a safe preview (blurred greyscale unless --unblurred); 1280 px ones are made on first request',
  usage: 'custody preview <item-id|sha256> [--size 256|1280] [--unblurred] [--json]',
  options: { size: { type: 'string' }, unblurred: { type: 'boolean' } },
  async run(args, io) {
    const target = args.positionals[0];
    if (target === undefined || args.positionals.length > 1)
      throw new UsageError(`name one item or object\nusage: ${this.usage}`);
    const size = parseNonNegativeInt(str(args, 'size') ?? '256', '--size');
    if (size !== 256 && size !== 1280) throw new UsageError('--size is 256 or 1280');
    const unblurred = flag(args, 'unblurred');
    const out = await withArchive(args, io, 'read', 'preview', async (archive) => {
      const sha256 = await resolveObject(archive, target);
      const analysis = await archive.index.getAnalysis(sha256);
      if (analysis === undefined)
        throw new ArchiveError(
          'NOT_FOUND',
          `object ${sha256} has not been analysed yet (run \`custody analyze\`)`,
        );
      const paths = previewPaths(archive, sha256, size);
      if (!existsSync(paths.plain) || !existsSync(paths.blurred)) {
        // Derived, regenerable, kept apart from the evidence: made on first request.
        const decoded = await decodeForAnalysis(
          await readFile(archive.store.pathOf(sha256)),
          size === 1280 ? 1280 : undefined,
        );
        await writePreviews(decoded.raster, analysis.orientation, size, paths);
      }
      return { sha256, size, blurred: !unblurred, path: unblurred ? paths.plain : paths.blurred };
    });
    if (wantsJson(args)) printJson(io, out);
    else io.stdout(`${out.path}\n`);
    return 0;
  },
};

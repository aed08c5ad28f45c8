import { ArchiveError } from '../archive/index.js';
import { assertNotWithdrawn, resolveObject } from '../archive/withdrawal.service.js';
import { ensurePreviews } from '../analysis/image/preview-cache.adapter.js';
import { flag, parseNonNegativeInt, printJson, str, UsageError, type Command } from './command.js';
import { wantsJson, withArchive } from './context.js';

export const previewCommand: Command = {
  name: 'preview',
  summary:
    'path of a safe preview (blurred greyscale and 32 px on the long edge at either size, unless --unblurred); 1280 px ones are made on first request',
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
      // A preview of withdrawn content is that content: refused, blurred or not (ITEM_WITHDRAWN).
      await assertNotWithdrawn(archive, sha256, 'preview');
      const analysis = await archive.index.getAnalysis(sha256);
      if (analysis === undefined)
        throw new ArchiveError(
          'NOT_FOUND',
          `object ${sha256} has not been analysed yet (run \`custody analyze\`)`,
        );
      // Derived, regenerable, kept apart from the evidence: made on first request.
      const paths = await ensurePreviews(
        archive.config.archiveDir,
        () => archive.store.readObject(sha256),
        sha256,
        size,
        analysis.orientation,
      );
      return { sha256, size, blurred: !unblurred, path: unblurred ? paths.plain : paths.blurred };
    });
    if (wantsJson(args)) printJson(io, out);
    else io.stdout(`${out.path}\n`);
    return 0;
  },
};

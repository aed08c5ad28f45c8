import { resolve } from 'node:path';
import { parseCheckpoint, parseVerifierKey } from '../core/index.js';
import { ArchiveError } from '../archive/index.js';
import { CheckpointFiles } from '../ledger/checkpoint-files.adapter.js';
import { publishCheckpoints } from '../ledger/publish.service.js';
import { flag, parseNonNegativeInt, printJson, str, UsageError, type Command } from './command.js';
import { wantsJson, withArchive } from './context.js';

export const checkpointCommand: Command = {
  name: 'checkpoint',
  summary: 'print a signed checkpoint (C2SP signed note) to hand to parties outside the archive; --sign adopts an interrupted run; --publish copies them out',
  usage: 'custody checkpoint [--at TREE-SIZE] [--json] | custody checkpoint --sign [--json] | custody checkpoint --publish DIR [--json]',
  options: { at: { type: 'string' }, sign: { type: 'boolean' }, publish: { type: 'string' } },
  async run(args, io) {
    const at = str(args, 'at');
    const publish = str(args, 'publish');
    if ([at !== undefined, flag(args, 'sign'), publish !== undefined].filter(Boolean).length > 1) {
      throw new UsageError(`--at, --sign and --publish do not go together\nusage: ${this.usage}`);
    }
    if (publish !== undefined) {
      const folder = resolve(publish);
      const r = await withArchive(args, io, 'read', 'checkpoint --publish', async (archive) => {
        if (folder === archive.config.archiveDir || folder.startsWith(`${archive.config.archiveDir}/`)) {
          throw new UsageError('--publish needs a folder outside the archive (a second disk, a mounted share): a copy inside it protects nothing');
        }
        return publishCheckpoints(archive.ledger, parseVerifierKey(archive.verifierKey), archive.manifest.origin, new CheckpointFiles(folder), folder);
      }, { lock: true });
      if (wantsJson(args)) printJson(io, r);
      else {
        io.stdout(`published ${r.published.length} checkpoint(s) to ${r.folder}; ${r.present.length} already there\n`);
        for (const x of r.refused) io.stderr(`custody: checkpoint ${x.size} not published: ${x.reason}\n`);
      }
      return r.refused.length === 0 ? 0 : 1;
    }
    if (flag(args, 'sign')) {
      // Opening for writing authenticates any unsigned tail (or refuses it); closing signs.
      const size = await withArchive(args, io, 'write', 'checkpoint --sign', (archive) => Promise.resolve(archive.ledger.size));
      const note = await withArchive(args, io, 'read', 'checkpoint', (archive) => archive.ledger.checkpointAt(size));
      if (wantsJson(args)) printJson(io, { size, note });
      else io.stdout(note ?? '');
      return 0;
    }
    const { note, size } = await withArchive(args, io, 'read', 'checkpoint', async (archive) => {
      const size = at === undefined ? ((await archive.ledger.checkpointSizes()).at(-1) ?? 0) : parseNonNegativeInt(at, '--at');
      const note = await archive.ledger.checkpointAt(size);
      if (note === null) throw new ArchiveError('NOT_FOUND', at === undefined ? 'the archive has no checkpoint yet' : `no checkpoint was signed at tree size ${size}`);
      return { note, size };
    });
    if (wantsJson(args)) {
      const body = note.slice(0, note.indexOf('\n\n') + 1);
      const cp = parseCheckpoint(body);
      printJson(io, { origin: cp.origin, size, root: cp.root.toString('hex'), note });
    } else io.stdout(note);
    return 0;
  },
};

import { parseCheckpoint } from '../core/checkpoint.js';
import { ArchiveError } from '../archive/errors.js';
import { parseNonNegativeInt, printJson, str, type Command } from './command.js';
import { wantsJson, withArchive } from './context.js';

export const checkpointCommand: Command = {
  name: 'checkpoint',
  summary: 'print a signed checkpoint (C2SP signed note) to hand to parties outside the archive',
  usage: 'custody checkpoint [--at TREE-SIZE] [--json]',
  options: { at: { type: 'string' } },
  async run(args, io) {
    const at = str(args, 'at');
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

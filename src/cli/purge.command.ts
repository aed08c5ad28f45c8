import { purgeWithdrawn } from '../archive/withdrawal.service.js';
import { flag, printJson, UsageError, type Command } from './command.js';
import { wantsJson, withArchive } from './context.js';

export const purgeCommand: Command = {
  name: 'purge',
  summary: 'remove the bytes of withdrawn objects, with a deletion entry for each',
  usage: 'custody purge --withdrawn [--json]',
  options: { withdrawn: { type: 'boolean' } },
  async run(args, io) {
    if (!flag(args, 'withdrawn')) throw new UsageError(`only withdrawn objects can be purged: say --withdrawn\nusage: ${this.usage}`);
    const r = await withArchive(args, io, 'write', 'purge', (archive) => purgeWithdrawn(archive));
    if (wantsJson(args)) printJson(io, r);
    else {
      for (const p of r.purged) io.stdout(`deletion entry ${p.seq}: purged ${p.sha256} (withdrawal ${p.withdrawal_seq})\n`);
      io.stdout(`${r.purged.length} objects purged\n`);
    }
    return 0;
  },
};

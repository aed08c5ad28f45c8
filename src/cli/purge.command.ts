import { purgeWithdrawn } from '../archive/purge.service.js';
import { flag, printJson, UsageError, type Command } from './command.js';
import { operationContext, wantsJson, withArchive } from './context.js';
import { cliFindingMessage } from './error-hints.js';

export const purgeCommand: Command = {
  name: 'purge',
  summary: 'remove the bytes and previews of withdrawn objects, with a deletion entry for each',
  usage: 'custody purge --withdrawn [--json]',
  options: { withdrawn: { type: 'boolean' } },
  async run(args, io) {
    if (!flag(args, 'withdrawn')) throw new UsageError(`only withdrawn objects can be purged: say --withdrawn\nusage: ${this.usage}`);
    const r = await withArchive(args, io, 'write', 'purge', (archive) => purgeWithdrawn(archive, operationContext(archive)));
    for (const x of r.refused) io.stderr(`custody: ${cliFindingMessage(x.code, x.message)} [${x.code}]\n`);
    if (wantsJson(args)) printJson(io, r);
    else {
      if (r.checkpoint.signed_now) io.stdout(`signed checkpoint ${r.checkpoint.size} first: every withdrawal acted on precedes it\n`);
      for (const p of r.purged) {
        io.stdout(`deletion entry ${p.seq}: purged ${p.sha256} (withdrawal ${p.withdrawal_seq}), ${p.previews.length} previews removed\n`);
      }
      io.stdout(`${r.purged.length} objects purged${r.refused.length > 0 ? `, ${r.refused.length} left alone` : ''}\n`);
    }
    return r.refused.length > 0 ? 1 : 0;
  },
};

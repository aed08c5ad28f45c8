import { withdraw } from '../archive/withdrawal.service.js';
import { printJson, requireStr, UsageError, type Command } from './command.js';
import { operationContext, wantsJson, withArchive } from './context.js';

export const withdrawCommand: Command = {
  name: 'withdraw',
  summary: 'record a lawful withdrawal of an object, and of every container holding it (court order, illegal content, consent withdrawn)',
  usage: 'custody withdraw <item-id|sha256> --reason TEXT --authority REF [--json]',
  options: { reason: { type: 'string' }, authority: { type: 'string' } },
  async run(args, io) {
    const target = args.positionals[0];
    if (target === undefined || args.positionals.length > 1) throw new UsageError(`name one item or object\nusage: ${this.usage}`);
    const reason = requireStr(args, 'reason', this);
    const authority = requireStr(args, 'authority', this);
    const r = await withArchive(args, io, 'write', 'withdraw', (archive) => withdraw(archive, operationContext(archive), target, reason, authority));
    if (wantsJson(args)) printJson(io, r);
    else {
      io.stdout(`withdrawal entry ${r.seq}: object ${r.sha256} (items ${r.items.join(', ')}); its bytes stay until \`custody purge --withdrawn\`\n`);
      for (const c of r.containers) {
        io.stdout(`withdrawal entry ${c.seq}: container ${c.sha256} (items ${c.items.join(', ')}), because it holds these bytes\n`);
      }
    }
    return 0;
  },
};

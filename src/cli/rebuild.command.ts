import { rebuildIndex } from '../ledger/index-rebuild.service.js';
import { printJson, type Command } from './command.js';
import { wantsJson, withArchive } from './context.js';
import { progressLine } from './progress.js';

export const rebuildCommand: Command = {
  name: 'rebuild',
  summary: 'rebuild the index database from the ledger (the ledger is the record)',
  usage: 'custody rebuild [--json]',
  options: {},
  async run(args, io) {
    const progress = progressLine(io, args);
    const r = await withArchive(args, io, 'write', 'rebuild', (archive) => rebuildIndex(archive, progress?.report), { skipIndexSync: true });
    progress?.end();
    if (wantsJson(args)) printJson(io, r);
    else io.stdout(`rebuilt the index from ${r.entries} ledger entries: ${Object.entries(r.rows).map(([t, n]) => `${t} ${n}`).join(', ')}\n`);
    return 0;
  },
};

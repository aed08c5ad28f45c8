import { rebuildIndex } from '../integrity/index-rebuild.service.js';
import { printJson, type Command } from './command.js';
import { wantsJson, withArchive } from './context.js';
import { progressLine } from './progress.js';

export const rebuildCommand: Command = {
  name: 'rebuild',
  summary: 'rebuild the index database from the ledger (the ledger is the record)',
  usage: 'custody rebuild [--json]',
  options: {},
  async run(args, io) {
    // A missing index is made; a damaged one is moved aside and made anew (never exit 70).
    const progress = progressLine(io, args);
    const r = await withArchive(args, io, 'write', 'rebuild', (archive) => rebuildIndex(archive, progress?.report), { skipIndexSync: true, index: 'rebuild' });
    progress?.end();
    if (wantsJson(args)) printJson(io, r);
    else {
      if (r.findings.some((x) => x.severity === 'error'))
        io.stdout('the old index disagreed with the ledger; these rows were dropped or replaced (keep this output: it may be the only trace of an edit):\n');
      for (const x of r.findings) io.stdout(`${x.severity === 'error' ? 'FAIL' : 'warn'} ${x.code}  ${x.message}\n`);
      io.stdout(`rebuilt the index from ${r.entries} ledger entries: ${Object.entries(r.rows).map(([t, n]) => `${t} ${n}`).join(', ')}\n`);
    }
    return 0;
  },
};

import { printJson, type Command } from './command.js';
import { atOption, wantsJson, withArchive } from './context.js';
import { indexSourceLine } from './index-source.js';
import { deliveryView } from '../archive/index.js';
import { terminalText as tt } from './terminal-text.js';

export const deliveriesCommand: Command = {
  name: 'deliveries',
  summary: 'list deliveries: who handed what over, on what medium, when',
  usage: 'custody deliveries [--at TREE-SIZE] [--json]',
  options: { at: { type: 'string' } },
  async run(args, io) {
    const at = atOption(args);
    const { rows, source } = await withArchive(args, io, 'read', 'deliveries', async (archive) => {
      const out = [];
      for (const d of await archive.index.listDeliveries()) out.push({ ...deliveryView(d), items: await archive.index.countItems(d.id) });
      return { rows: out, source: await indexSourceLine(archive, at) };
    }, { at });
    if (wantsJson(args)) printJson(io, rows);
    else {
      io.stdout(source);
      for (const d of rows) io.stdout(`${d.id}  source ${tt(d.source)}  ${d.items} items  opened ${d.opened_at} by ${tt(d.opened_by)}${d.closed_seq === null ? '  (open: interrupted)' : ''}\n`);
    }
    return 0;
  },
};

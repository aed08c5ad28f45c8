import { printJson, str, type Command } from './command.js';
import { atOption, wantsJson, withArchive } from './context.js';
import { indexSourceLine } from './index-source.js';
import { itemView } from './item-view.js';
import { terminalText as tt } from './terminal-text.js';

export const itemsCommand: Command = {
  name: 'items',
  summary: 'list items (one receipt of a file each), optionally of one delivery',
  usage: 'custody items [--delivery ID] [--at TREE-SIZE] [--json]',
  options: { delivery: { type: 'string' }, at: { type: 'string' } },
  async run(args, io) {
    const deliveryId = str(args, 'delivery');
    const at = atOption(args);
    const { items, source } = await withArchive(args, io, 'read', 'items', async (archive) => ({
      items: await archive.index.listItems(deliveryId === undefined ? {} : { deliveryId }),
      source: await indexSourceLine(archive, at),
    }), { at });
    if (wantsJson(args)) printJson(io, items.map((i) => itemView(i)));
    else {
      io.stdout(source);
      for (const i of items) io.stdout(`${i.id}  ${i.sha256.slice(0, 16)}…  ${String(i.size).padStart(10)}  ${tt(i.relative_path)}\n`);
    }
    return 0;
  },
};

import { itemsCsv, itemsTable } from '../catalogue/items-table.service.js';
import { flag, printJson, str, UsageError, type Command } from './command.js';
import { atOption, wantsJson, withArchive } from './context.js';
import { indexSourceLine } from './index-source.js';
import { itemView } from '../archive/index.js';
import { terminalText as tt } from './terminal-text.js';

export const itemsCommand: Command = {
  name: 'items',
  summary: 'list items (one receipt of a file each), optionally of one delivery; as a CSV or JSON table with file names, subjects and metadata',
  usage:
    'custody items [--delivery ID] [--at TREE-SIZE] [--json] | custody items --format csv|json [--with-metadata] [--delivery ID] [--at TREE-SIZE]   ' +
    '(the table: id, file, path, delivery, source, sha256, size, media_type, received_at, subject, number, unit; with metadata also camera, dates, size in pixels, PDQ and near-duplicate cluster)',
  options: {
    delivery: { type: 'string' },
    at: { type: 'string' },
    format: { type: 'string' },
    'with-metadata': { type: 'boolean' },
  },
  async run(args, io) {
    const deliveryId = str(args, 'delivery');
    const at = atOption(args);
    const format = str(args, 'format');
    if (format !== undefined) {
      if (format !== 'csv' && format !== 'json') throw new UsageError('--format is csv or json');
      const table = await withArchive(args, io, 'read', 'items', (archive) =>
        itemsTable(archive, { withMetadata: flag(args, 'with-metadata'), ...(deliveryId === undefined ? {} : { deliveryId }) }),
      { at });
      if (format === 'csv') io.stdout(itemsCsv(table));
      else printJson(io, table.rows);
      return 0;
    }
    if (flag(args, 'with-metadata')) throw new UsageError('--with-metadata goes with --format csv|json');
    const { items, source } = await withArchive(args, io, 'read', 'items', async (archive) => ({
      items: await archive.index.listItems(deliveryId === undefined ? {} : { deliveryId }),
      source: await indexSourceLine(archive, at),
    }), { at });
    if (wantsJson(args)) printJson(io, items.map((i) => itemView(i)));
    else {
      io.stdout(source);
      if (items.length === 0) io.stdout('No items: nothing has been ingested (or nothing in that delivery).\n');
      for (const i of items) io.stdout(`${i.id}  ${i.sha256.slice(0, 16)}…  ${String(i.size).padStart(10)}  ${tt(i.relative_path)}\n`);
    }
    return 0;
  },
};

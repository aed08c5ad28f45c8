import { indicatorTime } from '../analysis/authenticity.service.js';
import { objectDetail } from '../archive/object-detail.service.js';
import { printJson, UsageError, type Command } from './command.js';
import { atOption, wantsJson, withArchive } from './context.js';
import { objectGreyStepNote } from './grey-step-note.js';
import { indexSourceLine } from './index-source.js';
import { terminalText as tt } from './terminal-text.js';

export const showCommand: Command = {
  name: 'show',
  summary: 'show an item or an object, with every item that shares its bytes',
  usage: 'custody show <item-id|sha256> [--at TREE-SIZE] [--json]',
  options: { at: { type: 'string' } },
  async run(args, io) {
    const target = args.positionals[0];
    if (target === undefined || args.positionals.length > 1)
      throw new UsageError(`name one item or object\nusage: ${this.usage}`);
    const at = atOption(args);
    let source = '';
    const view = await withArchive(args, io, 'read', 'show', async (archive) => {
      const detail = await objectDetail(archive, target, {
        indicatorTime: await indicatorTime(archive, at),
      });
      source = await indexSourceLine(archive, at);
      return detail;
    }, { at });
    const note = objectGreyStepNote(view.grey_step);
    if (note !== null) io.stderr(`custody: note: ${note}\n`);
    if (wantsJson(args)) printJson(io, view);
    else {
      io.stdout(source);
      io.stdout(
        `object ${view.sha256}\n  size ${view.size}, ${view.media_type}, first received in entry ${view.first_seq}${view.withdrawn ? `, WITHDRAWN (entry ${view.withdrawn_seq})` : ''}\n`,
      );
      io.stdout(
        `  received ${view.items.length} time(s) from ${view.sources.length} source(s): ${tt(view.sources.join(', '))}\n`,
      );
      for (const i of view.items) {
        io.stdout(
          `  item ${i.id}  entry ${i.seq}  delivery ${i.delivery}  ${tt(i.path)}${i.flags.length > 0 ? `  [${i.flags.join(', ')}]` : ''}\n`,
        );
      }
    }
    return 0;
  },
};

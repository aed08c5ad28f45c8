import { type TrailTarget } from '../catalogue/index.js';
import { ledgerRows } from '../catalogue/ledger-entries.service.js';
import { parseNonNegativeInt, str, UsageError, type Command } from './command.js';
import { wantsJson, withArchive } from './context.js';
import { terminalText as tt } from './terminal-text.js';

export const logCommand: Command = {
  name: 'log',
  summary:
    'print ledger entries (with --json: one object per line with the exact canonical bytes); --item, --subject or --object: one thing\'s custody trail',
  usage:
    'custody log [--from N] [--to N] [--item ID | --subject ID | --object SHA256] [--json]   ' +
    '(entries N through M-1: --from is inclusive, --to exclusive, so --to M ends where `--at M` ends; ' +
    '--item/--subject/--object keep the entries that name it, in items, objects or details; an item\'s trail includes its object\'s, an object\'s its items\')',
  options: { from: { type: 'string' }, to: { type: 'string' }, item: { type: 'string' }, subject: { type: 'string' }, object: { type: 'string' } },
  async run(args, io) {
    const targets: TrailTarget[] = [];
    const item = str(args, 'item');
    const subject = str(args, 'subject');
    const object = str(args, 'object');
    if (item !== undefined) targets.push({ item });
    if (subject !== undefined) targets.push({ subject });
    if (object !== undefined) targets.push({ object: object.toLowerCase() });
    if (targets.length > 1) throw new UsageError('name one of --item, --subject or --object');
    let printed = 0;
    await withArchive(args, io, 'read', 'log', async (archive) => {
      const size = archive.ledger.size;
      const from = str(args, 'from') === undefined ? 0 : parseNonNegativeInt(str(args, 'from'), '--from');
      const to = str(args, 'to') === undefined ? size : Math.min(size, parseNonNegativeInt(str(args, 'to'), '--to'));
      const target = targets[0];
      for await (const row of ledgerRows(archive, { from, to, ...(target === undefined ? {} : { target }) })) {
        printed++;
        if (wantsJson(args)) io.stdout(`${JSON.stringify(row)}\n`);
        else {
          const e = row.entry;
          const action = typeof e.details.action === 'string' ? ` ${e.details.action}${sealedNote(e.details)}` : '';
          const what = [...e.items.map((i) => `item ${i}`), ...e.objects.map((o) => `object ${o.slice(0, 16)}…`)].join(' ');
          io.stdout(`${String(e.seq).padStart(6)}  ${e.time}  ${tt(e.actor)}  ${e.type}${action}${what === '' ? '' : `  ${what}`}\n`);
        }
      }
    });
    if (printed === 0 && !wantsJson(args))
      io.stdout(targets.length > 0 ? 'No ledger entry names it (in this range).\n' : 'No entries in this range.\n');
    return 0;
  },
};

/**
 * What a person may read of a missing-person entry on one line: an erasure's category (clear by
 * design), and that a contact read's reason is sealed (under the report's key: `missing show`
 * opens it for those within the consent scope). Older entries said more in clear; this prints
 * no free text of any entry.
 */
function sealedNote(d: { readonly [k: string]: unknown }): string {
  if (d.action === 'missing.erase') return typeof d.category === 'string' ? ` (${tt(d.category)})` : ' (reason in clear: an entry written before categories)';
  if (d.action === 'missing.read') return d.sealed === undefined ? ' (reason in clear: an entry written before it was sealed)' : ' (reason sealed)';
  return '';
}

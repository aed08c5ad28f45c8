import { toHex } from '../core/sha256.js';
import { parseNonNegativeInt, str, type Command } from './command.js';
import { wantsJson, withArchive } from './context.js';
import { terminalText as tt } from './terminal-text.js';

export const logCommand: Command = {
  name: 'log',
  summary: 'print ledger entries (with --json: one object per line with the exact canonical bytes)',
  usage: 'custody log [--from N] [--to N] [--json]',
  options: { from: { type: 'string' }, to: { type: 'string' } },
  async run(args, io) {
    await withArchive(args, io, 'read', 'log', async (archive) => {
      const size = archive.ledger.size;
      const from = str(args, 'from') === undefined ? 0 : parseNonNegativeInt(str(args, 'from'), '--from');
      const to = str(args, 'to') === undefined ? size : Math.min(size, parseNonNegativeInt(str(args, 'to'), '--to'));
      for (let a = from; a < to; a += 1000) {
        for (const s of await archive.ledger.read(a, Math.min(to, a + 1000))) {
          if (wantsJson(args)) {
            io.stdout(`${JSON.stringify({ index: s.entry.seq, entry: s.entry, leaf_hash: toHex(s.leafHash), canonical: s.bytes.toString('base64') })}\n`);
          } else {
            const e = s.entry;
            const what = [...e.items.map((i) => `item ${i}`), ...e.objects.map((o) => `object ${o.slice(0, 16)}…`)].join(' ');
            io.stdout(`${String(e.seq).padStart(6)}  ${e.time}  ${tt(e.actor)}  ${e.type}${what === '' ? '' : `  ${what}`}\n`);
          }
        }
      }
    });
    return 0;
  },
};

import { consistencyProofView, inclusionProofView } from '../ledger/proof.service.js';
import { parseNonNegativeInt, printJson, str, UsageError, type Command } from './command.js';
import { wantsJson, withArchive } from './context.js';

export const proveCommand: Command = {
  name: 'prove',
  summary: 'RFC 9162 proofs: inclusion of an entry, consistency between two tree sizes',
  usage: 'custody prove inclusion <seq> [--size N] [--json] | custody prove consistency <old-size> [<new-size>] [--json]',
  options: { size: { type: 'string' } },
  async run(args, io) {
    const [kind, a, b, ...extra] = args.positionals;
    if (extra.length > 0 || a === undefined) throw new UsageError(`usage: ${this.usage}`);
    const out = await withArchive(args, io, 'read', 'prove', async (archive) => {
      if (kind === 'inclusion') {
        if (b !== undefined) throw new UsageError(`usage: ${this.usage}`);
        const seq = parseNonNegativeInt(a, 'seq');
        const size = str(args, 'size');
        return inclusionProofView(archive.ledger, seq, size === undefined ? undefined : parseNonNegativeInt(size, '--size'));
      }
      if (kind === 'consistency') {
        const oldSize = parseNonNegativeInt(a, 'old-size');
        return consistencyProofView(archive.ledger, oldSize, b === undefined ? undefined : parseNonNegativeInt(b, 'new-size'));
      }
      throw new UsageError(`prove what? "inclusion" or "consistency"\nusage: ${this.usage}`);
    });
    if (wantsJson(args)) printJson(io, out);
    else {
      for (const [k, v] of Object.entries(out)) {
        if (k === 'proof') io.stdout(`proof (${(v as string[]).length} hashes, leaf to root):\n${(v as string[]).map((h) => `  ${h}\n`).join('')}`);
        else if (typeof v === 'string' && v.includes('\n')) io.stdout(`${k}:\n${v}`);
        else io.stdout(`${k}: ${String(v)}\n`);
      }
    }
    return 0;
  },
};


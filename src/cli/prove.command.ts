import type { Archive } from '../app.js';
import { toHex } from '../core/index.js';
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
        const size = str(args, 'size') === undefined ? await defaultSize(archive, seq + 1) : parseNonNegativeInt(str(args, 'size'), '--size');
        const proof = archive.ledger.inclusionProof(seq, size);
        const [entry] = await archive.ledger.read(seq, seq + 1);
        return {
          type: 'inclusion',
          index: seq,
          tree_size: size,
          leaf_hash: toHex(entry?.leafHash ?? Buffer.alloc(0)),
          root: toHex(archive.ledger.root(size)),
          proof: proof.map(toHex),
          canonical: entry?.bytes.toString('base64') ?? '',
          checkpoint: await archive.ledger.checkpointAt(size),
        };
      }
      if (kind === 'consistency') {
        const oldSize = parseNonNegativeInt(a, 'old-size');
        const newSize = b === undefined ? await defaultSize(archive, oldSize) : parseNonNegativeInt(b, 'new-size');
        const proof = archive.ledger.consistencyProof(oldSize, newSize);
        return {
          type: 'consistency',
          old_size: oldSize,
          new_size: newSize,
          old_root: toHex(archive.ledger.root(oldSize)),
          new_root: toHex(archive.ledger.root(newSize)),
          proof: proof.map(toHex),
          old_checkpoint: await archive.ledger.checkpointAt(oldSize),
          new_checkpoint: await archive.ledger.checkpointAt(newSize),
        };
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

/** The latest signed tree size that covers `atLeast` entries, else the whole ledger. */
async function defaultSize(archive: Archive, atLeast: number): Promise<number> {
  const signed = (await archive.ledger.checkpointSizes()).at(-1);
  return signed !== undefined && signed >= atLeast ? signed : archive.ledger.size;
}

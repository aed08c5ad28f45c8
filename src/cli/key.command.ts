import { flag, printJson, UsageError, type Command } from './command.js';
import { wantsJson, withArchive } from './context.js';

export const keyCommand: Command = {
  name: 'key',
  summary: "print the archive's checkpoint verifier key (signed-note format)",
  usage: 'custody key --public [--json]',
  options: { public: { type: 'boolean' } },
  async run(args, io) {
    if (!flag(args, 'public')) throw new UsageError(`only the public verifier key is ever printed: say --public\nusage: ${this.usage}`);
    const vkey = await withArchive(args, io, 'read', 'key', (archive) => Promise.resolve(archive.verifierKey));
    if (wantsJson(args)) {
      const [name, keyId] = vkey.split('+');
      printJson(io, { name, key_id: keyId, verifier_key: vkey, algorithm: 'Ed25519' });
    } else io.stdout(`${vkey}\n`);
    return 0;
  },
};

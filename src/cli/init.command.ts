import { initArchive } from '../app.js';
import { printJson, str, type Command } from './command.js';
import { configFrom, wantsJson } from './context.js';

export const initCommand: Command = {
  name: 'init',
  summary: 'create an archive: object store, ledger, index database, checkpoint-signing key',
  usage: 'custody init [--archive DIR] [--origin NAME] [--key-passphrase-file FILE]',
  options: { origin: { type: 'string' } },
  async run(args, io) {
    const config = configFrom(args, io);
    const origin = str(args, 'origin');
    const r = await initArchive(config, origin === undefined ? {} : { origin });
    if (!r.encrypted) {
      io.stderr(
        'custody: warning: the signing key is not encrypted (no CUSTODY_KEY_PASSPHRASE or --key-passphrase-file); ' +
          'checkpoints are only as safe as the key file, which is mode 0600\n',
      );
    }
    if (wantsJson(args)) {
      printJson(io, { archive: config.archiveDir, id: r.manifest.id, origin: r.manifest.origin, database: r.manifest.database, verifier_key: r.verifierKey, key_encrypted: r.encrypted });
    } else {
      io.stdout(`created archive ${config.archiveDir}\n  origin        ${r.manifest.origin}\n  database      ${r.manifest.database}\n  verifier key  ${r.verifierKey}\n`);
      io.stdout('Give the verifier key and your checkpoints to a party outside the archive (see `custody checkpoint`).\n');
    }
    return 0;
  },
};

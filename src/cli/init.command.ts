import { initArchive } from '../app.js';
import { printJson, str, type Command } from './command.js';
import { configFrom, wantsJson, withArchive } from './context.js';

export const initCommand: Command = {
  name: 'init',
  summary: 'create an archive: object store, ledger, index database, checkpoint-signing key',
  usage:
    'custody init [--archive DIR] [--origin NAME] [--key-passphrase-file FILE] [--admin NAME --admin-password-file FILE]',
  options: {
    origin: { type: 'string' },
    admin: { type: 'string' },
    'admin-password-file': { type: 'string' },
    'admin-password-fd': { type: 'string' },
  },
  async run(args, io) {
    const config = configFrom(args, io);
    const origin = str(args, 'origin');
    // The first administrator (issue 12): the password is read before anything is created.
    const admin = str(args, 'admin');
    const adminPassword =
      admin === undefined
        ? undefined
        : (await import('./user.command.js')).passwordFrom(args, 'admin-');
    if (admin !== undefined && adminPassword !== undefined)
      (await import('../accounts/accounts.service.js')).validateNewAccount({
        name: admin,
        role: 'administrator',
        password: adminPassword,
      });
    const r = await initArchive(config, origin === undefined ? {} : { origin });
    let adminId: string | null = null;
    if (admin !== undefined && adminPassword !== undefined) {
      const [{ addAccount }, { accountsPorts }] = await Promise.all([
        import('../accounts/accounts.service.js'),
        import('../app.js'),
      ]);
      adminId = (
        await withArchive(args, io, 'write', 'init', (a) =>
          addAccount(accountsPorts(a), {
            name: admin,
            role: 'administrator',
            org: null,
            password: adminPassword,
          }),
        )
      ).id;
    }
    if (!r.encrypted) {
      io.stderr(
        'custody: warning: the signing key is not encrypted (no CUSTODY_KEY_PASSPHRASE or --key-passphrase-file); ' +
          'checkpoints are only as safe as the key file, which is mode 0600\n',
      );
    }
    if (wantsJson(args)) {
      printJson(io, {
        archive: config.archiveDir,
        id: r.manifest.id,
        origin: r.manifest.origin,
        database: r.manifest.database,
        verifier_key: r.verifierKey,
        key_encrypted: r.encrypted,
        ...(adminId === null ? {} : { administrator: adminId }),
      });
    } else {
      io.stdout(
        `created archive ${config.archiveDir}\n  origin        ${r.manifest.origin}\n  database      ${r.manifest.database}\n  verifier key  ${r.verifierKey}\n`,
      );
      if (adminId !== null) io.stdout(`  administrator ${adminId}\n`);
      io.stdout(
        'Give the verifier key and your checkpoints to a party outside the archive (see `custody checkpoint`).\n',
      );
    }
    return 0;
  },
};

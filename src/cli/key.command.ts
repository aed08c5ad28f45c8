import { archiveLayout } from '../archive/index.js';
import { rewrapReportKey, rewrapSigningKey } from '../archive/key-rewrap.service.js';
import { checkedVerifierKey, readManifest } from '../archive/signing-key-record.adapter.js';
import { CheckpointFiles } from '../ledger/checkpoint-files.adapter.js';
import { flag, printJson, UsageError, type Command, type Io, type ParsedArgs } from './command.js';
import type { Config } from '../config/index.js';
import { configFrom, passphraseFrom, wantsJson } from './context.js';

const USAGE = [
  'custody key --public [--json]',
  '       custody key rewrap [--new-passphrase-file FILE | --new-passphrase-fd N] [--json]',
  '       custody key rewrap --report (--new-passphrase-file FILE | --new-passphrase-fd N) [--json]   (the report key, under CUSTODY_REPORT_PASSPHRASE today)',
  '       custody key enrol --user NAME|ID (--key-password-file FILE | --key-password-fd N) [--json]   (an examiner\'s or adjudicator\'s own signing key)',
  '       custody key revoke --user NAME|ID --reason TEXT [--json]',
].join('\n');

export const keyCommand: Command = {
  name: 'key',
  summary: "print the archive's checkpoint verifier key (checked against the ledger); `rewrap` re-encrypts the signing key",
  usage: USAGE,
  options: {
    public: { type: 'boolean' },
    report: { type: 'boolean' },
    'new-passphrase-file': { type: 'string' },
    'new-passphrase-fd': { type: 'string' },
    user: { type: 'string' },
    reason: { type: 'string' },
    'key-password-file': { type: 'string' },
    'key-password-fd': { type: 'string' },
  },
  async run(args, io) {
    const [action, ...rest] = args.positionals;
    if (rest.length > 0) throw new UsageError(`unexpected ${rest.join(' ')}\nusage: ${USAGE}`);
    if (action === 'rewrap') return rewrap(args, io);
    if (action === 'enrol' || action === 'revoke') return (await import('./person-key.js')).personKeyAction(action, args, io, USAGE);
    if (action !== undefined) throw new UsageError(`unknown action "${action}"\nusage: ${USAGE}`);
    if (!flag(args, 'public')) throw new UsageError(`only the public verifier key is ever printed: say --public\nusage: ${USAGE}`);
    const config = configFrom(args, io);
    const layout = archiveLayout(config.archiveDir);
    // Read from the files themselves, without opening the archive's index: the key is checked
    // against the ledger's creation entry and the newest signed checkpoint (checkedVerifierKey),
    // and `custody key --public` loads no database driver (issue 12, start-up).
    await readManifest(layout.manifest, config.archiveDir);
    const checkpoints = new CheckpointFiles(layout.checkpoints);
    const newest = (await checkpoints.sizes()).at(-1);
    const vkey = await checkedVerifierKey(layout, {
      passphrase: config.keyPassphrase,
      newestCheckpoint: newest === undefined ? null : await checkpoints.read(newest),
    });
    if (wantsJson(args)) {
      const [name, keyId] = vkey.split('+');
      printJson(io, { name, key_id: keyId, verifier_key: vkey, algorithm: 'Ed25519' });
    } else io.stdout(`${vkey}\n`);
    return 0;
  },
};

async function rewrap(args: ParsedArgs, io: Io): Promise<number> {
  if (flag(args, 'public')) throw new UsageError(`rewrap takes no --public\nusage: ${USAGE}`);
  const config = configFrom(args, io);
  const newPassphrase = passphraseFrom(args, io.env, { file: 'new-passphrase-file', fd: 'new-passphrase-fd' }) ?? null;
  if (flag(args, 'report')) return rewrapReport(args, io, config, newPassphrase);
  const r = await rewrapSigningKey({
    archiveDir: config.archiveDir,
    passphrase: config.keyPassphrase,
    newPassphrase,
    lockTimeoutMs: config.lockTimeoutMs,
  });
  if (wantsJson(args)) {
    printJson(io, { rewrapped: r.rewrapped, from: r.from, to: r.to, kdf: r.kdf === null ? null : { name: 'scrypt', ...r.kdf }, passphrase_changed: r.passphraseChanged, backup: null, note: r.note });
    return 0;
  }
  if (!r.rewrapped) {
    io.stdout(`signing key unchanged (${r.from}): ${r.note ?? ''}\n`);
    return 0;
  }
  const kdf = r.kdf === null ? '' : ` (scrypt N=${r.kdf.N} r=${r.kdf.r} p=${r.kdf.p}, AES-256-GCM)`;
  io.stdout(`signing key re-encrypted: ${r.from} -> ${r.to}${kdf}${r.passphraseChanged ? ', under the new passphrase' : ''}\n`);
  io.stdout('the key, the verifier key and every checkpoint are unchanged; no backup of the old file was kept\n');
  return 0;
}

/** `key rewrap --report`: the report KEK under a new report passphrase, which must not be the archive's. */
async function rewrapReport(args: ParsedArgs, io: Io, config: Config, newPassphrase: string | null): Promise<number> {
  if (newPassphrase === null) throw new UsageError(`key rewrap --report needs the new report passphrase (--new-passphrase-file FILE or --new-passphrase-fd N)\nusage: ${USAGE}`);
  if (newPassphrase === config.keyPassphrase)
    throw new UsageError('the new report passphrase must not be the archive key passphrase: whoever writes to the archive must not be able to read family reports');
  const r = await rewrapReportKey({ archiveDir: config.archiveDir, passphrase: config.reportPassphrase, newPassphrase, lockTimeoutMs: config.lockTimeoutMs });
  if (wantsJson(args)) printJson(io, { key: 'report', rewrapped: r.rewrapped, passphrase_changed: r.rewrapped, note: r.note });
  else io.stdout(r.rewrapped ? 'report key re-encrypted under the new report passphrase; every report key file is unchanged\n' : `report key unchanged: ${r.note ?? ''}\n`);
  return 0;
}

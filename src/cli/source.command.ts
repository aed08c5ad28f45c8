import { readFileSync } from 'node:fs';
import {
  grantRole,
  initSources,
  listSources,
  readIdentity,
  registerSource,
} from '../catalogue/sources/sources.service.js';
import {
  printJson,
  requireStr,
  str,
  UsageError,
  type Command,
  type Io,
  type ParsedArgs,
} from './command.js';
import { operationContext, wantsJson, withArchive } from './context.js';

export const sourceCommand: Command = {
  name: 'source',
  summary:
    "sources by codename; real identities sealed with the administrators' key, every read recorded",
  usage:
    'custody source init | source add CODENAME [--identity-file FILE] | source grant|revoke ACTOR | ' +
    'source reveal CODENAME --reason TEXT | source list [--json]   (the key: CUSTODY_SOURCES_PASSPHRASE or --sources-passphrase-file)',
  options: {
    'identity-file': { type: 'string' },
    reason: { type: 'string' },
    'sources-passphrase-file': { type: 'string' },
  },
  async run(args, io) {
    const [action, name, ...rest] = args.positionals;
    if (rest.length > 0) throw new UsageError(`usage: ${this.usage}`);
    const needName = (): string => {
      if (name === undefined) throw new UsageError(`usage: ${this.usage}`);
      return name;
    };
    const passphrase = sourcesPassphrase(args, io);
    const done = (out: unknown, text: string): number => {
      if (wantsJson(args)) printJson(io, out);
      else io.stdout(text);
      return 0;
    };
    switch (action) {
      case 'init':
        await withArchive(args, io, 'write', 'source init', (a) => initSources(a, operationContext(a), passphrase));
        return done({ ok: true }, 'the sources key is set; you hold the source-custodian role\n');
      case 'add': {
        const codename = needName();
        const file = str(args, 'identity-file');
        const identity = file === undefined ? null : readText(file);
        await withArchive(args, io, 'write', 'source add', (a) =>
          registerSource(a, operationContext(a), codename, identity, passphrase),
        );
        return done(
          { codename, identity_on_record: identity !== null },
          `source ${codename} registered${identity === null ? '' : ' (identity sealed)'}\n`,
        );
      }
      case 'grant':
      case 'revoke': {
        const actor = needName();
        await withArchive(args, io, 'write', `source ${action}`, (a) =>
          grantRole(a, operationContext(a), actor, action === 'revoke', passphrase),
        );
        return done(
          { actor, role: 'source-custodian', granted: action === 'grant' },
          `${actor}: source-custodian ${action === 'grant' ? 'granted' : 'revoked'}\n`,
        );
      }
      case 'reveal': {
        const codename = needName();
        const reason = requireStr(args, 'reason', this);
        const out = await withArchive(args, io, 'write', 'source reveal', (a) =>
          readIdentity(a, operationContext(a), codename, reason, passphrase),
        );
        return done(out, `${out.identity}\n(read recorded as ledger entry ${out.read_seq})\n`);
      }
      case 'list': {
        const sources = await withArchive(args, io, 'read', 'source list', (a) => listSources(a));
        return done(
          sources,
          sources
            .map(
              (s) =>
                `${s.codename}  ${s.deliveries} deliveries  identity ${s.identity_on_record ? 'sealed' : 'none'}  read ${s.reads} time(s)\n`,
            )
            .join(''),
        );
      }
      case undefined:
      default:
        throw new UsageError(`source what?\nusage: ${this.usage}`);
    }
  },
};

function sourcesPassphrase(args: ParsedArgs, io: Io): string | null {
  const file = str(args, 'sources-passphrase-file');
  if (file !== undefined) return readText(file).replace(/\r?\n$/, '');
  const env = io.env.CUSTODY_SOURCES_PASSPHRASE;
  return env === undefined || env === '' ? null : env;
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
}

import { accountsPorts } from '../app.js';
import {
  addAccount,
  changePassword,
  changeRole,
  disableAccount,
  listAccounts,
} from '../accounts/accounts.service.js';
import {
  printJson,
  requireStr,
  str,
  UsageError,
  type Command,
  type ParsedArgs,
} from './command.js';
import { passphraseFrom, wantsJson, withArchive } from './context.js';

/**
 * A password from `--<prefix>password-file FILE` or `--<prefix>password-fd N`, read like the key
 * passphrase; never from argv itself or the environment.
 */
export function passwordFrom(args: ParsedArgs, prefix = ''): string {
  const p = passphraseFrom(
    args,
    {},
    { file: `${prefix}password-file`, fd: `${prefix}password-fd` },
  );
  if (p === undefined)
    throw new UsageError(
      `give the password in a file (--${prefix}password-file FILE) or on a descriptor (--${prefix}password-fd N)`,
    );
  return p;
}

export const userCommand: Command = {
  name: 'user',
  summary:
    'staff accounts and roles: names sealed in the ledger, passwords hashed (scrypt) in the index only',
  usage:
    'custody user add NAME --role ROLE [--org ORG] [--password-file FILE | --password-fd N] | ' +
    'user passwd NAME [--password-file FILE | --password-fd N] | user disable NAME --reason TEXT | ' +
    'user role NAME ROLE --reason TEXT | user list [--json]',
  options: {
    role: { type: 'string' },
    org: { type: 'string' },
    reason: { type: 'string' },
    'password-file': { type: 'string' },
    'password-fd': { type: 'string' },
  },
  async run(args, io) {
    const [action, name, third, ...rest] = args.positionals;
    if (rest.length > 0) throw new UsageError(`usage: ${this.usage}`);
    const needName = (): string => {
      if (name === undefined) throw new UsageError(`usage: ${this.usage}`);
      return name;
    };
    const noThird = (): void => {
      if (third !== undefined) throw new UsageError(`usage: ${this.usage}`);
    };
    const done = (out: unknown, text: string): number => {
      if (wantsJson(args)) printJson(io, out);
      else io.stdout(text);
      return 0;
    };
    switch (action) {
      case 'add': {
        const n = needName();
        noThird();
        const role = requireStr(args, 'role', this);
        const org = str(args, 'org') ?? null;
        const password = passwordFrom(args);
        const r = await withArchive(args, io, 'write', 'user add', (a) =>
          addAccount(accountsPorts(a), { name: n, role, org, password }),
        );
        return done(
          { id: r.id, role: r.role, seq: r.seq },
          `account ${r.id} created (${r.role})\n`,
        );
      }
      case 'passwd': {
        const n = needName();
        noThird();
        const password = passwordFrom(args);
        const r = await withArchive(args, io, 'write', 'user passwd', (a) =>
          changePassword(accountsPorts(a), n, password),
        );
        return done({ id: r.id, seq: r.seq }, `password of account ${r.id} changed\n`);
      }
      case 'disable': {
        const n = needName();
        noThird();
        const reason = requireStr(args, 'reason', this);
        const r = await withArchive(args, io, 'write', 'user disable', (a) =>
          disableAccount(accountsPorts(a), n, reason),
        );
        return done({ id: r.id, seq: r.seq }, `account ${r.id} disabled\n`);
      }
      case 'role': {
        const n = needName();
        if (third === undefined) throw new UsageError(`usage: ${this.usage}`);
        const reason = requireStr(args, 'reason', this);
        const r = await withArchive(args, io, 'write', 'user role', (a) =>
          changeRole(accountsPorts(a), n, third, reason),
        );
        return done({ id: r.id, role: r.role, seq: r.seq }, `account ${r.id} is now ${r.role}\n`);
      }
      case 'list': {
        if (name !== undefined) throw new UsageError(`usage: ${this.usage}`);
        // Write mode: the names are sealed under the archive's key.
        const accounts = await withArchive(args, io, 'write', 'user list', (a) =>
          listAccounts(accountsPorts(a)),
        );
        if (wantsJson(args)) {
          printJson(io, accounts);
          return 0;
        }
        if (accounts.length === 0) io.stdout('no accounts\n');
        for (const a of accounts)
          io.stdout(
            `${a.id}  ${a.role.padEnd(16)}  ${a.disabled ? 'disabled' : 'active  '}  ${a.name}${a.org === null ? '' : ` (${a.org})`}${a.has_password ? '' : '  [no password: user passwd]'}\n`,
          );
        return 0;
      }
      case undefined:
      default:
        throw new UsageError(`usage: ${this.usage}`);
    }
  },
};

import { listAccounts } from '../accounts/accounts.service.js';
import { actorKey } from '../core/index.js';
import { listViews } from '../archive/views.service.js';
import { accountsPorts } from '../app.js';
import { flag, parseNonNegativeInt, printJson, str, UsageError, type Command } from './command.js';
import { wantsJson, withArchive } from './context.js';
import { terminalText as tt } from './terminal-text.js';

const ULID = /^[0-9A-Za-z]{26}$/;

export const auditCommand: Command = {
  name: 'audit',
  summary: 'who saw what, and when: audited views of evidence through the server',
  usage:
    'custody audit views [--item ID] [--user ACCOUNT-ID | --names --user NAME] [--since TIME] [--limit N] [--names] [--json]   ' +
    '(newest first; staff names are sealed: --names opens them with the archive key)',
  options: {
    item: { type: 'string' },
    user: { type: 'string' },
    since: { type: 'string' },
    limit: { type: 'string' },
    names: { type: 'boolean' },
  },
  async run(args, io) {
    const [what, ...rest] = args.positionals;
    if (what !== 'views' || rest.length > 0) throw new UsageError(`usage: ${this.usage}`);
    const names = flag(args, 'names');
    const user = str(args, 'user');
    if (user !== undefined && !ULID.test(user) && !names)
      throw new UsageError('--user takes an account id; to name the person, add --names (it needs the archive key)');
    const since = str(args, 'since');
    if (since !== undefined && Number.isNaN(Date.parse(since)))
      throw new UsageError(`--since takes a time (RFC 3339, e.g. 2026-01-31T12:00:00Z), got "${since}"`);
    const item = str(args, 'item');
    const limit = str(args, 'limit') === undefined ? 1000 : parseNonNegativeInt(str(args, 'limit'), '--limit');
    // Names are sealed under the archive's key: opening them needs write mode (as `user list`).
    const rows = await withArchive(args, io, names ? 'write' : 'read', 'audit views', async (a) => {
      const opened = names ? await listAccounts(accountsPorts(a)) : null;
      const roles = new Map((await a.index.listAccounts()).map((r) => [r.id, r.role]));
      let account = user?.toUpperCase();
      if (user !== undefined && opened !== null && !ULID.test(user)) {
        const hit = opened.find((x) => actorKey(x.name) === actorKey(user));
        if (hit === undefined) throw new UsageError(`no account named ${user}`);
        account = hit.id;
      }
      const views = await listViews(a.index.queries, {
        limit,
        ...(item === undefined ? {} : { item: item.toUpperCase() }),
        ...(account === undefined ? {} : { account }),
        ...(since === undefined ? {} : { since: new Date(since).toISOString() }),
      });
      const nameOf = new Map(opened?.map((x) => [x.id, x.name]) ?? []);
      return views.map((v) => ({
        ...v,
        name: opened === null ? null : (nameOf.get(v.account) ?? null),
        role: roles.get(v.account) ?? null,
      }));
    });
    if (wantsJson(args)) printJson(io, rows);
    else if (rows.length === 0) io.stdout('No recorded views.\n');
    else
      for (const r of rows)
        io.stdout(
          `${String(r.seq).padStart(6)}  ${r.time}  ${tt(r.name ?? r.account)}${r.role === null ? '' : ` (${r.role})`}  ${r.action}  item ${r.item ?? '-'}\n`,
        );
    return 0;
  },
};

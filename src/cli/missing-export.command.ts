// `custody missing export ID --out DIR|FILE.zip [--include-contacts --reason TEXT] [--organization NAME]`:
// a report's identification file in a bag for the authorities (reports/export/identification-bag.service.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { identificationBagArchive, openArchive } from '../app.js';
import { packageRoot } from '../reports/export/index.js';
import { exportIdentificationBag } from '../reports/export/identification-bag.service.js';
import { bagFiles } from '../reports/export/bag-files.adapter.js';
import { flag, printJson, str, UsageError, type Io, type ParsedArgs } from './command.js';
import { configFrom, wantsJson } from './context.js';
import { terminalText as tt } from './terminal-text.js';

export async function runMissingExport(args: ParsedArgs, io: Io, usage: string): Promise<number> {
  const [, report, ...rest] = args.positionals;
  if (report === undefined || rest.length > 0)
    throw new UsageError(`name one report\nusage: ${usage}`);
  const out = str(args, 'out');
  if (out === undefined || out.trim() === '')
    throw new UsageError(`--out is required\nusage: ${usage}`);
  const includeContacts = flag(args, 'include-contacts');
  const reason = str(args, 'reason') ?? null;
  if (includeContacts && (reason === null || reason.trim() === ''))
    throw new UsageError(
      '--include-contacts needs --reason TEXT: the release of the contact is recorded with it',
    );
  const config = configFrom(args, io);
  const organization = str(args, 'organization') ?? (io.env.CUSTODY_ORGANIZATION || undefined);
  const r = await exportIdentificationBag(
    {
      open: async () =>
        identificationBagArchive(await openArchive(config, 'write', 'missing export')),
      now: Date.now,
      files: bagFiles(config.archiveDir),
      removedPartial: (p) =>
        io.stderr(`custody: removed ${p}, left on the target by an export that was killed\n`),
    },
    {
      report,
      out,
      includeContacts,
      reason,
      softwareVersion: version(),
      ...(organization === undefined ? {} : { organization }),
    },
  );
  for (const n of r.notes) io.stderr(`custody: note: ${tt(n)}\n`);
  if (wantsJson(args)) {
    printJson(io, r);
    return 0;
  }
  io.stdout(
    `exported the identification file of report ${r.report} to ${r.out}${r.zip ? ' (zip)' : ''} at signed checkpoint ${r.tree_size} (root ${r.root})\n`,
  );
  io.stdout(
    `  ${r.subject_links} report↔subject link(s), ${r.report_links} report↔report decision(s); ${r.entries} ledger entries in custody/ledger.jsonl, each with its inclusion proof\n`,
  );
  io.stdout(
    r.contacts === 'released'
      ? `  the reporting contact is in the bag: its release is recorded as ledger entry ${String(r.contact_release_seq)}\n`
      : '  the reporting contact is redacted (--include-contacts --reason TEXT releases it, and the release is recorded)\n',
  );
  io.stdout(
    `recorded as ledger entry ${r.ledger_seq} (dissemination), tag manifest sha256 ${r.tagmanifest_sha256}\n`,
  );
  io.stdout(`receipt (the entry, its proofs; keep it with the bag): ${r.receipt}\n`);
  return 0;
}

function version(): string {
  const root = packageRoot();
  if (root === null) return 'unknown';
  return (
    (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string })
      .version ?? 'unknown'
  );
}

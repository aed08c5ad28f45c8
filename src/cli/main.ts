import { CODE_VERSION } from '../version.js';
import { CustodyError } from '../core/index.js';
import { indexCorruptError, isDamagedIndexError } from '../db/index.js';
import { EXIT, parseCommandArgs, UsageError, type Command, type Io } from './command.js';
import { cliMessage } from './error-hints.js';
import { exitCodeFor } from './exit-codes.js';
import { terminalText } from './terminal-text.js';

/**
 * The commands, each loaded only when it runs (`load`), so that start-up, `--version` and
 * `--help` do not import every command's libraries (Chromium's driver, sharp, the exporters).
 * The name and summary are repeated here for the help text; main.test.ts checks they match.
 */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  readonly load: () => Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'init',
    summary: 'create an archive: object store, ledger, index database, checkpoint-signing key',
    load: async () => (await import('./init.command.js')).initCommand,
  },
  {
    name: 'ingest',
    summary: 'take in files, folders and ZIP archives as one delivery, without changing a bit',
    load: async () => (await import('./ingest.command.js')).ingestCommand,
  },
  {
    name: 'verify',
    summary: 'check objects, ledger, checkpoints, trusted checkpoints and the index; modifies nothing unless --record',
    load: async () => (await import('./verify.command.js')).verifyCommand,
  },
  {
    name: 'verify-export',
    summary: 'verify an export bag offline (BagIt, signed checkpoint, proofs, evidence files); needs no archive',
    load: async () => (await import('./verify-export.command.js')).verifyExportCommand,
  },
  {
    name: 'rebuild',
    summary: 'rebuild the index database from the ledger (the ledger is the record)',
    load: async () => (await import('./rebuild.command.js')).rebuildCommand,
  },
  {
    name: 'withdraw',
    summary: 'record a lawful withdrawal of an object, and of every container holding it (court order, illegal content, consent withdrawn)',
    load: async () => (await import('./withdraw.command.js')).withdrawCommand,
  },
  {
    name: 'purge',
    summary: 'remove the bytes and previews of withdrawn objects, with a deletion entry for each',
    load: async () => (await import('./purge.command.js')).purgeCommand,
  },
  {
    name: 'log',
    summary: "print ledger entries (with --json: one object per line with the exact canonical bytes); --item, --subject or --object: one thing's custody trail",
    load: async () => (await import('./log.command.js')).logCommand,
  },
  {
    name: 'checkpoint',
    summary: 'print a signed checkpoint (C2SP signed note) to hand to parties outside the archive; --sign adopts an interrupted run; --publish copies them out',
    load: async () => (await import('./checkpoint.command.js')).checkpointCommand,
  },
  {
    name: 'tail',
    summary: 'show the ledger entries after the last signed checkpoint; --set-aside moves an unauthenticated tail aside, recorded',
    load: async () => (await import('./tail.command.js')).tailCommand,
  },
  {
    name: 'key',
    summary: "print the archive's checkpoint verifier key (checked against the ledger); `rewrap` re-encrypts the signing key",
    load: async () => (await import('./key.command.js')).keyCommand,
  },
  {
    name: 'prove',
    summary: 'RFC 9162 proofs: inclusion of an entry, consistency between two tree sizes',
    load: async () => (await import('./prove.command.js')).proveCommand,
  },
  {
    name: 'items',
    summary: 'list items (one receipt of a file each), optionally of one delivery; as a CSV or JSON table with file names, subjects and metadata',
    load: async () => (await import('./items.command.js')).itemsCommand,
  },
  {
    name: 'show',
    summary: 'show an item or an object, with every item that shares its bytes',
    load: async () => (await import('./show.command.js')).showCommand,
  },
  {
    name: 'deliveries',
    summary: 'list deliveries: who handed what over, on what medium, when',
    load: async () => (await import('./deliveries.command.js')).deliveriesCommand,
  },
  {
    name: 'analyze',
    summary: 'run pending image analysis: metadata, JPEG structure, PDQ, crop signal, previews',
    load: async () => (await import('./analyze.command.js')).analyzeCommand,
  },
  {
    name: 'exif',
    summary: 'the full ExifTool dump of an item (exiftool -json -n -G), for the forensic record',
    load: async () => (await import('./exif.command.js')).exifCommand,
  },
  {
    name: 'preview',
    summary: 'path of a safe preview (blurred greyscale and 32 px on the long edge at either size, unless --unblurred); 1280 px ones are made on first request',
    load: async () => (await import('./preview.command.js')).previewCommand,
  },
  {
    name: 'similar',
    summary: 'objects that look like this one: same image re-encoded, resized, rotated, flipped or cropped',
    load: async () => (await import('./similar.command.js')).similarCommand,
  },
  {
    name: 'clusters',
    summary: 'near-duplicate clusters across the whole archive (PDQ, rotations/flips, crops)',
    load: async () => (await import('./clusters.command.js')).clustersCommand,
  },
  {
    name: 'decide',
    summary: "record an examiner's decision on a pair or a cluster: same image, same subject, or different",
    load: async () => (await import('./decide.command.js')).decideCommand,
  },
  {
    name: 'authenticity',
    summary: 'authenticity indicators for an item, or --summary for the collection (indicators, not verdicts)',
    load: async () => (await import('./authenticity.command.js')).authenticityCommand,
  },
  {
    name: 'interval',
    summary: '95% intervals for K of N (Wilson, Clopper–Pearson; exact hypergeometric with --population)',
    load: async () => (await import('./interval.command.js')).intervalCommand,
  },
  {
    name: 'agreement',
    summary: "inter-rater agreement from a CSV of raw answers (Krippendorff's alpha, Fleiss', Cohen's kappa)",
    load: async () => (await import('./agreement.command.js')).agreementCommand,
  },
  {
    name: 'unit',
    summary: 'the unit registry: security branches and similar bodies (names in Arabic and English, aliases, parent)',
    load: async () => (await import('./unit.command.js')).unitCommand,
  },
  {
    name: 'scheme',
    summary: 'numbering schemes: how the numbers on bodies and cards are written (see src/catalogue/numbering/README.md)',
    load: async () => (await import('./scheme.command.js')).schemeCommand,
  },
  {
    name: 'subject',
    summary: 'subjects: one person as catalogued (number, unit, sex, age band, dates, photographs); every change with a reason',
    load: async () => (await import('./subject.command.js')).subjectCommand,
  },
  {
    name: 'source',
    summary: "sources by codename; real identities sealed with the administrators' key, every read recorded",
    load: async () => (await import('./source.command.js')).sourceCommand,
  },
  {
    name: 'serve',
    summary: 'run the team server (HTTP API; accounts, roles, audited views) over the archive',
    load: async () => (await import('./serve.command.js')).serveCommand,
  },
  {
    name: 'audit',
    summary: 'who saw what, and when: audited views of evidence through the server',
    load: async () => (await import('./audit.command.js')).auditCommand,
  },
  {
    name: 'user',
    summary: 'staff accounts and roles: names sealed in the ledger, passwords hashed (scrypt) in the index only',
    load: async () => (await import('./user.command.js')).userCommand,
  },
  {
    name: 'missing',
    summary: "missing-person reports from families: each sealed under its own key (never in clear in the ledger), contact reads recorded, erasure by destroying the key, candidate subjects",
    load: async () => (await import('./missing.command.js')).missingCommand,
  },
  {
    name: 'sample',
    summary: 'sampling plans: freeze a frame, fix a seed, draw (each a ledger entry; in one step or three); show a plan and its cases',
    load: async () => (await import('./sample.command.js')).sampleCommand,
  },
  {
    name: 'examine',
    summary: 'blind, independent examination of a sample: assign examiners, print a case form, submit a sealed answer, see progress',
    load: async () => (await import('./examine.command.js')).examineCommand,
  },
  {
    name: 'adjudicate',
    summary: "decide where a case's examiners disagree, with a reason for each decision (after every answer is revealed)",
    load: async () => (await import('./adjudicate.command.js')).adjudicateCommand,
  },
  {
    name: 'stats',
    summary: 'prevalence of each finding in a sample, with 95% intervals, breakdowns and agreement, tied to a checkpoint',
    load: async () => (await import('./stats.command.js')).statsCommand,
  },
  {
    name: 'export',
    summary: 'a BagIt bag of selected items at a signed checkpoint, verifiable without Custody',
    load: async () => (await import('./export.command.js')).exportCommand,
  },
  {
    name: 'report',
    summary: 'an evidence report (HTML or PDF) at a signed checkpoint; every figure footnoted with the command that reproduces it',
    load: async () => (await import('./report.command.js')).reportCommand,
  },

];

function defaultIo(): Io {
  return {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTty: process.stderr.isTTY,
    env: process.env,
  };
}

/** Runs one CLI invocation and returns its exit code. Never throws. */
export async function runCli(argv: string[], io: Io = defaultIo()): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
      io.stdout(helpText());
      return name === undefined ? EXIT.usage : EXIT.ok;
    }
    if (name === '--version') {
      io.stdout(`${CODE_VERSION}\n`);
      return EXIT.ok;
    }
    const entry = COMMANDS.find((c) => c.name === name);
    if (entry === undefined) throw new UsageError(`unknown command "${name}"\n${helpText()}`);
    const cmd = await entry.load();
    const args = parseCommandArgs(cmd, rest);
    if (args.values.help === true) {
      io.stdout(`${cmd.summary}\nusage: ${cmd.usage}\n`);
      return EXIT.ok;
    }
    return await cmd.run(args, io);
  } catch (caught) {
    // SQLite finding its file damaged in the middle of a query: the index, not Custody, is broken.
    const e = isDamagedIndexError(caught) ? indexCorruptError(caught) : caught;
    if (e instanceof CustodyError) {
      const code = (e as CustodyError).code;
      if (io.isTty) io.stderr('\r\x1b[K'); // a progress line may stand unfinished
      // Line by line: a usage message is several lines; a name inside one is escaped.
      io.stderr(`custody: ${cliMessage(e as CustodyError).split('\n').map(terminalText).join('\n')} [${code}]\n`);
      for (const line of problemLines((e as CustodyError).details.errors)) io.stderr(`  ${terminalText(line)}\n`);
      return exitCodeFor(e);
    }
    // A crash must never read as a finding.
    io.stderr(
      `custody: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
    );
    return exitCodeFor(e);
  }
}

/**
 * One line per problem of a file (`details.errors`): import rows carry {row, column, reason},
 * batch lines {line, case, field, message}. Problems with only a path ({path, message}, a single
 * form) are already listed in the message. Nothing absent is ever printed.
 */
export function problemLines(errors: unknown): string[] {
  if (!Array.isArray(errors)) return [];
  const out: string[] = [];
  for (const r of errors as Record<string, unknown>[]) {
    if (typeof r !== 'object' || r === null || (r.row === undefined && r.line === undefined)) continue;
    const where: string[] = [];
    const add = (label: string, v: unknown): void => {
      if ((typeof v === 'string' && v !== '') || typeof v === 'number') where.push(label === '' ? String(v) : `${label} ${v}`);
    };
    add('row', r.row);
    add('line', r.line);
    add('case', r.case);
    add('', r.column);
    add('', r.field);
    const text = typeof r.reason === 'string' ? r.reason : typeof r.message === 'string' ? r.message : 'invalid';
    out.push(`${where.join(', ')}: ${text}${typeof r.code === 'string' ? ` [${r.code}]` : ''}`);
  }
  return out;
}

function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'custody: evidence archive with a tamper-evident custody ledger',
    '',
    'usage: custody <command> [options]   (every command takes --archive DIR and --json)',
    '',
    ...lines,
    '',
    'Exit codes: 0 success, 1 a finding (verification failed, bad input reported), 2 usage error, 70 internal error.',
    '',
  ].join('\n');
}

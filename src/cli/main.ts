import { CODE_VERSION } from '../version.js';
import { CustodyError } from '../core/errors.js';
import { indexCorruptError, isDamagedIndexError } from '../db/errors.js';
import { EXIT, parseCommandArgs, UsageError, type Command, type Io } from './command.js';
import { analyzeCommand } from './analyze.command.js';
import { checkpointCommand } from './checkpoint.command.js';
import { exifCommand } from './exif.command.js';
import { clustersCommand } from './clusters.command.js';
import { similarCommand } from './similar.command.js';
import { decideCommand } from './decide.command.js';
import { authenticityCommand } from './authenticity.command.js';
import { unitCommand } from './unit.command.js';
import { schemeCommand } from './scheme.command.js';
import { subjectCommand } from './subject.command.js';
import { sourceCommand } from './source.command.js';
import { sampleCommand } from './sample.command.js';
import { examineCommand } from './examine.command.js';
import { adjudicateCommand } from './adjudicate.command.js';
import { statsCommand } from './stats.command.js';
import { agreementCommand } from './agreement.command.js';
import { intervalCommand } from './interval.command.js';
import { previewCommand } from './preview.command.js';
import { deliveriesCommand } from './deliveries.command.js';
import { ingestCommand } from './ingest.command.js';
import { initCommand } from './init.command.js';
import { itemsCommand } from './items.command.js';
import { keyCommand } from './key.command.js';
import { logCommand } from './log.command.js';
import { proveCommand } from './prove.command.js';
import { purgeCommand } from './purge.command.js';
import { rebuildCommand } from './rebuild.command.js';
import { reportCommand } from './report.command.js';
import { showCommand } from './show.command.js';
import { verifyCommand } from './verify.command.js';
import { verifyExportCommand } from './verify-export.command.js';
import { withdrawCommand } from './withdraw.command.js';
import { exportCommand } from './export.command.js';
import { tailCommand } from './tail.command.js';
import { terminalText } from './terminal-text.js';

export const COMMANDS: readonly Command[] = [
  initCommand,
  ingestCommand,
  verifyCommand,
  verifyExportCommand,
  rebuildCommand,
  withdrawCommand,
  purgeCommand,
  logCommand,
  checkpointCommand,
  tailCommand,
  keyCommand,
  proveCommand,
  itemsCommand,
  showCommand,
  deliveriesCommand,
  analyzeCommand,
  exifCommand,
  previewCommand,
  similarCommand,
  clustersCommand,
  decideCommand,
  authenticityCommand,
  intervalCommand,
  agreementCommand,
  unitCommand,
  schemeCommand,
  subjectCommand,
  sourceCommand,
  sampleCommand,
  examineCommand,
  adjudicateCommand,
  statsCommand,
  exportCommand,
  reportCommand,
];

/** Error codes that mean "the command was asked wrongly" (exit 2) rather than a finding (exit 1). */
const USAGE_CODES = new Set([
  'USAGE',
  'CONFIG_INVALID',
  'ARCHIVE_NOT_FOUND',
  'ARCHIVE_EXISTS',
  'ARCHIVE_TREE_SIZE_INVALID',
  'KEY_PASSPHRASE_REQUIRED',
  'DB_CONFIG_MISSING',
  'INGEST_BAD_REQUEST',
  'SOURCE_KEY_REQUIRED',
  'EXPORT_SELECT_INVALID',
  'EXPORT_OPTIONS_INVALID',
  'EXPORT_OUT_EXISTS',
  'EXPORT_OUT_INSIDE_ARCHIVE',
  'EXPORT_NOT_SIGNED',
  'STATS_OUT_OF_RANGE',
]);

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
    const cmd = COMMANDS.find((c) => c.name === name);
    if (cmd === undefined) throw new UsageError(`unknown command "${name}"\n${helpText()}`);
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
      io.stderr(`custody: ${e.message.split('\n').map(terminalText).join('\n')} [${code}]\n`);
      for (const line of problemLines((e as CustodyError).details.errors)) io.stderr(`  ${terminalText(line)}\n`);
      return USAGE_CODES.has(code) ? EXIT.usage : EXIT.finding;
    }
    // A crash must never read as a finding.
    io.stderr(
      `custody: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
    );
    return EXIT.internal;
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

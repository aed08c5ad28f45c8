import { readFile, stat } from 'node:fs/promises';
import { CustodyError } from '../core/index.js';
import { openBagDir } from '../verify/bagit/bag-dir.adapter.js';
import { openBagZip } from '../verify/bagit/bag-zip.adapter.js';
import { parsePinnedKey, PROCESS_INCOMPLETE, verifyExport, type ExportReport, type VerifierKey } from '../verify/index.js';
import { explainPointer, type Explanation } from '../verify/export/process/index.js';
import { EXIT, printJson, str, UsageError, type Command, type Io } from './command.js';
import { wantsJson } from './context.js';
import { terminalText as tt } from './terminal-text.js';

/**
 * `custody verify-export`: the checks of src/reports/export/LAYOUT.md on a bag directory or
 * a .zip holding one. Needs no archive and no database: everything comes from the bag and the
 * options.
 */
export const verifyExportCommand: Command = {
  name: 'verify-export',
  summary: 'verify an export bag offline (BagIt, signed checkpoint, proofs, evidence files); needs no archive',
  usage: "custody verify-export <bag-dir|bag.zip> [--key FILE | --trusted-checkpoint FILE] [--receipt FILE] [--explain '<bag path>#<JSON pointer>'] [--json]",
  options: { key: { type: 'string' }, 'trusted-checkpoint': { type: 'string' }, receipt: { type: 'string' }, explain: { type: 'string' } },
  async run(args, io) {
    const [bagPath, ...extra] = args.positionals;
    if (bagPath === undefined || extra.length > 0) throw new UsageError(`usage: ${this.usage}`);
    const keyFile = str(args, 'key');
    const pinnedKey = keyFile === undefined ? undefined : parseKeyFile(keyFile, await readOption(keyFile, '--key'));
    const trustedFile = str(args, 'trusted-checkpoint');
    const trustedCheckpoint = trustedFile === undefined ? undefined : await readOption(trustedFile, '--trusted-checkpoint');
    const receiptFile = str(args, 'receipt');
    const receipt = receiptFile === undefined ? undefined : Buffer.from(await readOption(receiptFile, '--receipt'), 'utf8');
    const source = await openBag(bagPath);
    let report: ExportReport;
    try {
      report = await verifyExport(source, { pinnedKey, trustedCheckpoint, ...(receipt === undefined ? {} : { receipt }) });
    } finally {
      await source.close();
    }
    const explain = str(args, 'explain');
    if (explain !== undefined) {
      // --explain '<bag path>#<pointer>': one figure, the bag's value beside the ledger's (exit 2: no such figure).
      const e = explainPointer(report, explain);
      if (typeof e === 'string') throw new UsageError(`--explain ${explain}: ${e}\nusage: ${this.usage}`);
      if (wantsJson(args)) printJson(io, { pointer: e.pointer, bag: e.bag ?? null, derived: e.derived ?? null, agrees: e.agrees, proven: e.proven, entries: e.entries.map((x) => x.seq), explanation: e.explanation });
      else printExplanation(io, e);
      return e.agrees && e.proven ? EXIT.ok : EXIT.finding;
    }
    if (wantsJson(args)) {
      printJson(io, { bag: bagPath, valid: report.valid, key_source: report.keySource, full_ledger: report.ledger.full, steps: report.steps, findings: report.findings, notCovered: report.process?.notCovered ?? [] });
    } else {
      printReport(io, bagPath, report);
    }
    return report.valid ? EXIT.ok : EXIT.finding;
  },
};

async function readOption(file: string, option: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`${option} ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function parseKeyFile(file: string, text: string): VerifierKey {
  try {
    return parsePinnedKey(text);
  } catch (e) {
    if (e instanceof CustodyError) throw new UsageError(`--key ${file}: ${e.message} (expected a verifier key line or an Ed25519 PEM public key)`);
    throw e;
  }
}

async function openBag(path: string) {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) throw new UsageError(`${path}: no such bag directory or zip file`);
  try {
    return info.isDirectory() ? await openBagDir(path) : await openBagZip(path);
  } catch (e) {
    throw new UsageError(`${path}: cannot open it as a bag: ${(e as Error).message}`);
  }
}

function printReport(io: Io, bagPath: string, report: ExportReport): void {
  io.stdout(`custody verify-export ${tt(bagPath)}\n`);
  for (const s of report.steps) io.stdout(`  ${s.ok ? 'ok  ' : 'FAIL'} ${s.step}. ${s.name}: ${tt(s.detail)}\n`);
  for (const f of report.findings) {
    const where = f.path === undefined || f.message.includes(f.path) ? '' : ` (${f.path})`;
    io.stdout(`  ${f.severity === 'error' ? 'error' : 'warning'} [${f.code}] ${tt(f.message)}${tt(where)}\n`);
  }
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  const completeness = report.steps.find((s) => s.step === 8);
  if (completeness !== undefined) {
    const codes = [...new Set(report.findings.filter((f) => f.step === 8 && f.severity === 'error').map((f) => f.code))];
    io.stdout(completeness.ok ? 'Completeness: VERIFIED (the receipt\'s signed entry names exactly the items in this bag)\n' : `Completeness: NOT VERIFIED (${codes.join(', ')})\n`);
  }
  if (!report.valid) io.stdout(`NOT VERIFIED: ${errors} finding(s)\n`);
  else if (report.keySource === 'bag') io.stdout('VERIFIED against the key in the bag only: the verifier key was taken from the bag itself; pin it from an independent channel\n');
  else io.stdout(`VERIFIED (key from: ${report.keySource})\n`);
  for (const line of verdicts(report)) io.stdout(`${line}\n`);
}

/**
 * One verdict per claim (ISSUE11-CONTRACT §2): the evidence files (checks 1–5) and the process,
 * which rests on the ledger lines (check 6) under an intact bag and a valid signature (1–3).
 */
function verdicts(report: ExportReport): string[] {
  const ok = (...steps: number[]) => steps.every((n) => report.steps.find((s) => s.step === n)?.ok === true);
  const codes = (...steps: number[]) => {
    const found = report.findings.filter((f) => f.severity === 'error' && steps.includes(f.step)).map((f) => f.code);
    return [...new Set(found)].join(', ');
  };
  const bagOnly = report.keySource === 'bag' ? ' (against the key in the bag only)' : '';
  const evidence = ok(1, 2, 3, 4, 5) ? `Evidence files: VERIFIED${bagOnly}` : `Evidence files: NOT VERIFIED (${codes(1, 2, 3, 4, 5)})`;
  let process: string;
  if (!ok(1, 2, 3, 6, 7)) process = `Process: NOT VERIFIED (${codes(1, 2, 3, 6, 7)})`;
  else if (report.ledger.full) process = `Process: VERIFIED (full ledger)${bagOnly}`;
  else process = `Process: NOT VERIFIED AS COMPLETE (EXPORT_PROCESS_INCOMPLETE): ${PROCESS_INCOMPLETE}`;
  const notCovered = report.process?.notCovered ?? [];
  const uncovered = notCovered.length === 0 ? [] : [`Not covered by the signature (not derived from the ledger): ${tt(notCovered.join('; '))}`];
  return [evidence, process, ...uncovered];
}

function printExplanation(io: Io, e: Explanation): void {
  io.stdout(`${tt(e.pointer)}\n`);
  io.stdout(`  in the bag:       ${tt(JSON.stringify(e.bag) ?? '(absent)')}\n`);
  io.stdout(`  from the ledger:  ${tt(JSON.stringify(e.derived) ?? '(not derived)')}\n`);
  io.stdout(`  agree: ${e.agrees ? 'yes' : 'NO'}\n`);
  io.stdout(`  rests on ${e.entries.length} ledger entr${e.entries.length === 1 ? 'y' : 'ies'}:\n`);
  for (const x of e.entries) io.stdout(`    ${x.seq}  ${tt(x.type)}${x.action === null ? '' : ` ${tt(x.action)}`}${x.proven ? '' : '  (not proven)'}\n`);
  io.stdout(`${tt(e.explanation)}\n`);
}

import type { Archive } from '../app.js';
import { verifyArchive, type TrustedCheckpointInput, type VerifyReport } from '../integrity/archive-verify.service.js';
import { fixityDraft } from '../integrity/fixity-record.service.js';
import { readTrustedCheckpoints } from '../integrity/trusted-checkpoints.adapter.js';
import { ReportKeyFiles } from '../identification/reports/report-keys.adapter.js';
import { countingHashFiles } from '../store/hash-files.adapter.js';
import { flag, list, printJson, type Command, type Io } from './command.js';
import { wantsJson, withArchive } from './context.js';
import { cliFindingMessage } from './error-hints.js';
import { terminalText as tt } from './terminal-text.js';
import { progressLine } from './progress.js';

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'check objects, ledger, checkpoints, trusted checkpoints and the index; modifies nothing unless --record',
  usage: 'custody verify [--json] [--trusted-checkpoint FILE|DIR]... [--record]',
  options: { 'trusted-checkpoint': { type: 'string', multiple: true }, record: { type: 'boolean' } },
  async run(args, io) {
    const trusted: TrustedCheckpointInput[] = await readTrustedCheckpoints(list(args, 'trusted-checkpoint'));
    const progress = progressLine(io, args);
    const check = (archive: Archive) =>
      verifyArchive({ archive, hashFiles: countingHashFiles(progress?.report), reportKeys: () => ReportKeyFiles.forArchive(archive.config.archiveDir).list() }, trusted, progress?.report);
    let recorded: number | null = null;
    let report: VerifyReport;
    if (flag(args, 'record')) {
      // One writer's lock for the whole check and its record, so that what is recorded is
      // exactly the ledger that was checked. The index is not caught up first: a lag is a finding.
      report = await withArchive(args, io, 'write', 'verify --record', async (archive) => {
        const r = await check(archive);
        const [e] = await archive.commit([fixityDraft(archive.config.actor, r)]);
        recorded = e?.entry.seq ?? null;
        return r;
      }, { skipIndexSync: true });
    } else {
      report = await withArchive(args, io, 'read', 'verify', check, { lock: true, index: 'tolerate' });
    }
    progress?.end();
    if (wantsJson(args)) printJson(io, { ...report, recorded_seq: recorded });
    else printVerify(io, report, recorded);
    return report.ok ? 0 : 1;
  },
};

function printVerify(io: Io, r: VerifyReport, recorded: number | null): void {
  for (const x of r.findings) {
    const mark = x.severity === 'error' ? 'FAIL' : x.severity === 'warning' ? 'warn' : 'ok  ';
    io.stdout(`${mark} ${x.code}  ${tt(cliFindingMessage(x.code, x.message))}\n`);
  }
  io.stdout(
    `objects: ${r.objects.hashed} re-hashed (${r.objects.bytes} bytes), ${r.objects.referenced} named by the ledger, ${r.objects.withdrawn} withdrawn\n` +
      `ledger: ${r.ledger.size} entries, root ${r.ledger.root}\n` +
      `checkpoints: ${r.checkpoints.verified} of ${r.checkpoints.stored} verified (signature and root)\n` +
      `index: ${r.index.rows_compared} rows compared with the ledger\n`,
  );
  if (recorded !== null) io.stdout(`recorded as fixity check entry ${recorded}\n`);
  io.stdout(r.ok ? 'VERIFIED: the archive is intact\n' : 'VERIFICATION FAILED\n');
}

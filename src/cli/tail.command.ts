import { rebuildIndex } from '../integrity/index-rebuild.service.js';
import { keepSideFile } from '../ledger/side-file.adapter.js';
import { describeTail, setAsideTail, type TailReport } from '../ledger/tail.service.js';
import { flag, printJson, requireStr, type Command, type Io } from './command.js';
import { wantsJson, withArchive } from './context.js';

export const tailCommand: Command = {
  name: 'tail',
  summary: 'show the ledger entries after the last signed checkpoint; --set-aside moves an unauthenticated tail aside, recorded',
  usage: 'custody tail [--json] | custody tail --set-aside --reason TEXT [--json]',
  options: { 'set-aside': { type: 'boolean' }, reason: { type: 'string' } },
  async run(args, io) {
    if (!flag(args, 'set-aside')) {
      const report = await withArchive(args, io, 'read', 'tail', (archive) => describeTail(archive.ledger), { lock: true });
      if (wantsJson(args)) printJson(io, report);
      else printTail(io, report, 'after the last signed checkpoint');
      return 0;
    }
    const reason = requireStr(args, 'reason', this);
    const r = await withArchive(
      args,
      io,
      'write',
      'tail --set-aside',
      (archive) =>
        setAsideTail(
          {
            ledger: archive.ledger,
            keepSideFile: (name, bytes) => keepSideFile(archive.config.archiveDir, name, bytes),
            rebuildIndex: () => rebuildIndex(archive),
            commit: (drafts) => archive.commit(drafts),
          },
          { actor: archive.config.actor, reason, now: new Date() },
        ),
      { allowUnauthenticatedTail: true, skipIndexSync: true },
    );
    if (wantsJson(args)) printJson(io, r);
    else {
      printTail(io, r, 'set aside');
      io.stdout(`kept in ${r.file} (sha256 ${r.sha256}); recorded as quarantine entry ${r.entry}\n`);
    }
    return 0;
  },
};

function printTail(io: Io, report: TailReport, what: string): void {
  if (report.lines.length === 0) {
    io.stdout(`no entries ${what}: the ledger (${report.ledger_size} entries) is covered by the checkpoint at size ${report.checkpoint_size}\n`);
    return;
  }
  io.stdout(`${report.lines.length} entries ${what} (size ${report.checkpoint_size}):\n`);
  for (const l of report.lines) {
    // The line was not necessarily written by Custody: print it JSON-escaped, never raw.
    io.stdout(`${String(l.seq).padStart(6)}  ${l.time ?? '?'}  ${JSON.stringify(l.actor ?? '?')}  ${l.type ?? '(not an entry)'}  leaf ${l.leaf_hash.slice(0, 16)}…\n        ${JSON.stringify(l.text)}\n`);
  }
}

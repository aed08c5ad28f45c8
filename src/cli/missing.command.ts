import { readFile } from 'node:fs/promises';
import { missingPorts } from '../app.js';
import { parseReportsCsv, parseReportsJson, type Mark } from '../identification/index.js';
import { IDENTIFICATION_CODEBOOK, identificationCodebookDigest } from '../identification/index.js';
import { eraseReport, importReports, listReports, MISSING_ERASE_CATEGORIES, showReport } from '../identification/reports/reports.service.js';
import { candidatesFor } from '../identification/candidates/candidates.service.js';
import { recordPm, showPm } from '../identification/pm/pm.service.js';
import { linkReports, reviewLink } from '../identification/reports/link.service.js';
import { flag, list, parseNonNegativeInt, printJson, requireStr, str, UsageError, type Command, type Io, type ParsedArgs } from './command.js';
import { wantsJson, withArchive } from './context.js';
import { terminalText as tt } from './terminal-text.js';
import { runReviewSubject, runSubjects, runViewing } from './missing-review.command.js';
import { runMissingExport } from './missing-export.command.js';

export const missingCommand: Command = {
  name: 'missing',
  summary: "missing-person reports from families: each sealed under its own key (never in clear in the ledger), contact reads recorded, erasure by destroying the key, candidate subjects",
  usage:
    'custody missing import FILE.csv|FILE.json [--org ORG] | missing list [--names] | missing show ID [--contact --reason TEXT] | ' +
    `missing erase ID --category ${MISSING_ERASE_CATEGORIES.join('|')} | ` +
    'missing candidates ID [--limit N] | missing link [--threshold P] | ' +
    'missing link-review ID ID --same|--different --reason TEXT | ' +
    'missing review-subject ID SUBJECT --accept|--reject|--level recognised --viewing SEQ|--level confirmed --reference KIND:TEXT… --reason TEXT | ' +
    'missing viewing ID SUBJECT --attendee NAME[:RELATION]… --shown ITEM:blurred|direct:recognised|not-recognised|unsure… [--notes TEXT] | ' +
    'missing viewing ID SUBJECT --file SESSION.json | missing subjects ID | missing codebook | ' +
    'missing export ID --out DIR|FILE.zip [--include-contacts --reason TEXT] [--organization NAME]   (all with [--json])',
  options: {
    org: { type: 'string' },
    names: { type: 'boolean' },
    contact: { type: 'boolean' },
    reason: { type: 'string' },
    category: { type: 'string' },
    limit: { type: 'string' },
    threshold: { type: 'string' },
    same: { type: 'boolean' },
    different: { type: 'boolean' },
    accept: { type: 'boolean' },
    reject: { type: 'boolean' },
    level: { type: 'string' },
    viewing: { type: 'string' },
    reference: { type: 'string', multiple: true },
    attendee: { type: 'string', multiple: true },
    shown: { type: 'string', multiple: true },
    notes: { type: 'string' },
    file: { type: 'string' },
    out: { type: 'string' },
    'include-contacts': { type: 'boolean' },
    organization: { type: 'string' },
  },
  async run(args, io) {
    const [action, target, ...rest] = args.positionals;
    if (action === 'link-review') return runLinkReview(args, io, this.usage);
    if (action === 'review-subject') return runReviewSubject(args, io, this.usage);
    if (action === 'viewing') return runViewing(args, io, this.usage);
    if (action === 'subjects') return runSubjects(args, io, this.usage);
    if (action === 'export') return runMissingExport(args, io, this.usage);
    if (rest.length > 0) throw new UsageError(`usage: ${this.usage}`);
    const needTarget = (what: string): string => {
      if (target === undefined) throw new UsageError(`name the ${what}\nusage: ${this.usage}`);
      return target;
    };
    const json = wantsJson(args);
    switch (action) {
      case 'import': {
        const file = needTarget('file');
        const text = await readFile(file, 'utf8').catch((e: unknown) => {
          throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
        });
        const parsed = /\.json$/i.test(file) ? parseReportsJson(text) : parseReportsCsv(text);
        const org = str(args, 'org') ?? null;
        const r = await withArchive(args, io, 'write', 'missing import', (a) => importReports(missingPorts(a), parsed.rows, parsed.errors, { org }));
        if (json) printJson(io, r);
        else
          io.stdout(
            `${r.imported} report(s) imported, each sealed under its own key (keys/reports/)` +
              (r.units_unresolved > 0 ? `; ${r.units_unresolved} name an arresting body the unit registry does not know (kept as written)` : '') +
              '\n',
          );
        return 0;
      }
      case 'list': {
        if (target !== undefined) throw new UsageError(`usage: ${this.usage}`);
        const names = flag(args, 'names');
        // Names need the archive key: write mode. Without --names, metadata only, read mode.
        const reports = await withArchive(args, io, names ? 'write' : 'read', 'missing list', (a) => listReports(missingPorts(a), { names }));
        if (json) {
          printJson(io, reports);
          return 0;
        }
        io.stdout(names ? 'Reports with the names the family gave (contacts stay sealed):\n' : 'Reports by id, organisation and date; names and contacts are sealed (--names shows names, with the archive key):\n');
        if (reports.length === 0) io.stdout('no reports\n');
        for (const r of reports) {
          const state = r.erased_seq !== null ? `ERASED (entry ${r.erased_seq}: ${tt(r.erased_category ?? r.erased_reason ?? '')})${r.key === 'left-after-erase' ? ' — key file still present: run missing erase again' : ''}` : r.key === 'missing' ? 'KEY MISSING: unreadable' : 'sealed';
          const who = names && r.erased_seq === null ? `  ${tt(r.name_ar ?? '')} ${tt(r.name_latin ?? '')}${r.unreadable != null ? ` [${r.unreadable}]` : ''}` : '';
          io.stdout(`${r.id}  ${tt(r.org)}  ${r.recorded_at.slice(0, 10)}  ${state}  contact read ${r.contact_reads} time(s)${who}\n`);
        }
        return 0;
      }
      case 'show': {
        const id = needTarget('report');
        const contact = flag(args, 'contact');
        const reason = contact ? requireStr(args, 'reason', this) : null;
        const v = await withArchive(args, io, 'write', 'missing show', (a) => showReport(missingPorts(a), id, { contactReason: reason }));
        if (json) {
          printJson(io, v);
          return 0;
        }
        const c = v.content;
        const line = (label: string, value: unknown): void => {
          if (value !== null && value !== undefined && value !== '') io.stdout(`  ${label.padEnd(18)} ${tt(typeof value === 'string' ? value : JSON.stringify(value))}\n`);
        };
        io.stdout(`report ${v.id}  from ${tt(v.org)}  recorded ${v.recorded_at} by ${tt(v.recorded_by)}\n`);
        line('name (Arabic)', c.name_ar);
        line('name (Latin)', c.name_latin);
        line('father', c.father_name);
        line('grandfather', c.grandfather_name);
        line('family', c.family_name);
        line('mother', c.mother_name);
        line('sex', c.sex);
        line('born', c.birth);
        line('from', c.origin);
        line(c.event === 'last_seen' ? 'last seen' : 'arrested', [c.event_date, c.event_place].filter((x) => x !== null).join(', '));
        line('arresting body', c.unit === null ? null : `${c.unit.as_reported}${c.unit.id === null ? ' (not in the unit registry)' : ` (unit ${c.unit.id})`}`);
        for (const [k, val] of Object.entries(c.am)) line(k, k === 'marks' ? marksText(val) : val);
        line('consent', `organisations: ${[v.org, ...c.consent.orgs].join(', ')}; photographs ${c.consent.photographs === 'yes' ? `may be shown through ${c.consent.liaison ?? '?'}` : 'may not be shown'}`);
        if (c.contact === 'sealed') io.stdout('  contact            sealed (--contact --reason TEXT reads it; the read is recorded)\n');
        else if (c.contact !== null) {
          line('contact', Object.values(c.contact).filter((x) => x !== null).join(', '));
          io.stdout(`  (this read is recorded in ledger entry ${String(v.contact_read_seq)}, the reason sealed under the report's key)\n`);
        }
        for (const r of v.contact_reads)
          io.stdout(`  contact read       entry ${r.seq}, ${r.time} by ${tt(r.actor)}: ${r.reason === null ? '(reason sealed, cannot be opened)' : tt(r.reason)}\n`);
        return 0;
      }
      case 'erase': {
        const id = needTarget('report');
        // --reason is still taken when it names a category; free text is refused (not recorded).
        const category = str(args, 'category') ?? str(args, 'reason');
        if (category === undefined || (str(args, 'category') !== undefined && str(args, 'reason') !== undefined))
          throw new UsageError(`say why with one --category: ${MISSING_ERASE_CATEGORIES.join(', ')} (the category is recorded; no free text is)\nusage: ${this.usage}`);
        const r = await withArchive(args, io, 'write', 'missing erase', (a) => eraseReport(missingPorts(a), id, category));
        if (json) printJson(io, r);
        else io.stdout(`report ${r.id} erased (ledger entry ${r.seq}, ${r.category}): its key is destroyed; the ciphertext and the reasons of its contact reads stay in the ledger and can no longer be read\n`);
        return 0;
      }
      case 'candidates': {
        const id = needTarget('report');
        const limit = str(args, 'limit') === undefined ? 20 : parseNonNegativeInt(str(args, 'limit'), '--limit');
        const r = await withArchive(args, io, 'write', 'missing candidates', (a) => candidatesFor(missingPorts(a), id, { limit }));
        if (json) {
          printJson(io, r);
          return 0;
        }
        io.stdout(`${r.notice}\nCandidates for report ${r.report} (${r.candidates.length} of ${r.subjects} subjects; ordered by score, the sum of the factors' weights; no photograph is shown):\n`);
        for (const c of r.candidates) {
          io.stdout(`${String(c.rank).padStart(3)}. subject ${c.subject}${c.number === null ? '' : ` (${tt(c.number)})`}: score ${c.score.toFixed(2)}; ${c.agreed} agree, ${c.close} close, ${c.disagreed} disagree, ${c.missing} missing\n`);
          for (const f of c.factors) io.stdout(`       ${f.factor.padEnd(6)} ${f.outcome.padEnd(9)} ${(f.weight >= 0 ? '+' : '') + f.weight.toFixed(2)} ${tt(f.detail)}\n`);
        }
        return 0;
      }
      case 'link': {
        if (target !== undefined) throw new UsageError(`usage: ${this.usage}`);
        const t = str(args, 'threshold');
        const threshold = t === undefined ? undefined : Number(t);
        if (threshold !== undefined && !(Number.isFinite(threshold) && threshold > 0 && threshold < 1))
          throw new UsageError(`--threshold takes a probability strictly between 0 and 1, got ${JSON.stringify(t)}`);
        const r = await withArchive(args, io, 'write', 'missing link', (a) => linkReports(missingPorts(a), { threshold }));
        if (json) {
          printJson(io, r);
          return 0;
        }
        io.stdout(`${r.notice}\n${r.reports} report(s) compared` + (r.excluded.length > 0 ? `; ${r.excluded.length} left out (${r.excluded.map((x) => `${x.id}: ${x.reason}`).join(', ')})` : '') + '\n');
        io.stdout(`Candidate pairs (${r.pairs.length}), strongest first:\n`);
        for (const p of r.pairs) {
          const agreed = Object.entries(p.agreements).filter(([, level]) => level !== 'missing' && level !== 'different').map(([f, level]) => `${f}=${level}`);
          const differ = Object.entries(p.agreements).filter(([, level]) => level === 'different').map(([f]) => f);
          const review = p.review === null ? 'not reviewed' : `reviewed: ${p.review.decision} (entry ${p.review.seq}: ${p.review.reason === null ? 'reason sealed, cannot be opened' : tt(p.review.reason)})`;
          io.stdout(`  ${p.a} (${tt(p.org_a)}) ~ ${p.b} (${tt(p.org_b)})  p=${p.probability.toFixed(4)}  weight ${p.weight.toFixed(2)} bits  ${review}\n`);
          io.stdout(`      agree: ${agreed.join(', ') || 'none'}${differ.length > 0 ? `; differ: ${differ.join(', ')}` : ''}\n`);
        }
        io.stdout(`Proposed clusters at p >= ${r.threshold} (to review, not merged): ${r.clusters.length === 0 ? 'none' : ''}\n`);
        for (const c of r.clusters) io.stdout(`  ${c.join(' + ')}\n`);
        io.stdout(`Missing persons after review (joined by --same decisions): ${r.persons.length === 0 ? 'none' : ''}\n`);
        for (const g of r.persons) io.stdout(`  ${g.join(' = ')}\n`);
        return 0;
      }
      case 'codebook': {
        if (target !== undefined) throw new UsageError(`usage: ${this.usage}`);
        const digest = identificationCodebookDigest();
        if (json) printJson(io, { digest, codebook: IDENTIFICATION_CODEBOOK });
        else {
          io.stdout(`${IDENTIFICATION_CODEBOOK.title}\nversion ${IDENTIFICATION_CODEBOOK.version}  sha256 ${digest}\n`);
          for (const f of IDENTIFICATION_CODEBOOK.fields) io.stdout(`  ${f.code.padEnd(12)} ${f.sides.join('+').toUpperCase().padEnd(6)} ${f.label}: ${f.definition}\n`);
          io.stdout(`  regions: ${IDENTIFICATION_CODEBOOK.regions.map((x) => x.code).join(', ')}\n  mark kinds: ${IDENTIFICATION_CODEBOOK.markKinds.map((x) => x.code).join(', ')}\n`);
        }
        return 0;
      }
      case undefined:
      default:
        throw new UsageError(`missing what?\nusage: ${this.usage}`);
    }
  },
};

/** `custody missing link-review A B --same|--different --reason TEXT`: records a reviewer's decision. */
async function runLinkReview(args: ParsedArgs, io: Io, usage: string): Promise<number> {
  const [, a, b, ...rest] = args.positionals;
  if (a === undefined || b === undefined || rest.length > 0) throw new UsageError(`name two reports\nusage: ${usage}`);
  const same = flag(args, 'same');
  const different = flag(args, 'different');
  if (same === different) throw new UsageError(`say --same or --different (one of them)\nusage: ${usage}`);
  const reason = str(args, 'reason');
  if (reason === undefined || reason.trim() === '') throw new UsageError('--reason is required: the decision is recorded with it');
  const r = await withArchive(args, io, 'write', 'missing link-review', (x) => reviewLink(missingPorts(x), a, b, same ? 'same' : 'different', reason));
  if (wantsJson(args)) printJson(io, r);
  else
    io.stdout(
      `recorded (ledger entry ${r.seq}): reports ${r.reports.join(' and ')} are ${r.decision === 'same' ? 'the same person' : 'different people'}; ` +
        'the entry holds the report ids and the decision; the reason is sealed under both reports\' keys\n',
    );
  return 0;
}

/**
 * `custody subject pm ID`: shows a subject's PM record; with `--set FIELD=VALUE…` or `--file
 * PM.json` (an object of fields), records the change as a ledger entry with its reason.
 */
export async function runSubjectPm(args: ParsedArgs, io: Io, subjectId: string): Promise<number> {
  const sets = list(args, 'set');
  const file = str(args, 'file');
  let view;
  if (sets.length === 0 && file === undefined) {
    view = await withArchive(args, io, 'read', 'subject pm', (a) => showPm(missingPorts(a), subjectId));
  } else {
    const fields: Record<string, unknown> = {};
    if (file !== undefined) {
      let data: unknown;
      try {
        data = JSON.parse(await readFile(file, 'utf8'));
      } catch (e) {
        throw new UsageError(`cannot read ${file} as JSON: ${(e as Error).message}`);
      }
      if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UsageError(`${file} must hold one JSON object of PM fields`);
      Object.assign(fields, data);
    }
    for (const s of sets) {
      const eq = s.indexOf('=');
      if (eq <= 0) throw new UsageError(`--set takes FIELD=VALUE, got ${JSON.stringify(s)}`);
      fields[s.slice(0, eq).trim()] = s.slice(eq + 1);
    }
    const reason = str(args, 'reason');
    if (reason === undefined || reason.trim() === '') throw new UsageError('--reason is required to record PM data');
    view = await withArchive(args, io, 'write', 'subject pm', (a) => recordPm(missingPorts(a), subjectId, fields, reason));
  }
  if (wantsJson(args)) printJson(io, view);
  else {
    io.stdout(`subject ${view.subject}: post-mortem record${view.seq === null ? ' (none yet)' : ` (ledger entry ${view.seq}, codebook ${view.codebook?.version ?? '?'})`}\n`);
    for (const [k, v] of Object.entries(view.pm)) io.stdout(`  ${k.padEnd(12)} ${tt(k === 'marks' ? marksText(v) : typeof v === 'string' ? v : JSON.stringify(v))}\n`);
  }
  return 0;
}

/** Marks as a person reads them: "scar (face): left cheek; tattoo (chest)". */
function marksText(v: unknown): string {
  return (Array.isArray(v) ? (v as Mark[]) : []).map((m) => `${m.kind} (${m.region})${m.description === null ? '' : `: ${m.description}`}`).join('; ');
}

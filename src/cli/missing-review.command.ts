// `custody missing review-subject | viewing | subjects`: the report↔subject review, evidence levels
// and consented family viewings (issue 15). Parses, calls one service, prints. At the CLI the actor
// is self-declared (--actor, CUSTODY_ACTOR): the liaison check compares it with the consent, but
// only the team server's accounts can enforce consent against a person (README).
import { readFile } from 'node:fs/promises';
import { missingPorts } from '../app.js';
import { raiseLevel, reviewSubjectLink, subjectLinksOf, type CorroborationRef } from '../identification/reports/subject-link.service.js';
import { recordViewing, type ViewingRequest } from '../identification/reports/viewing.service.js';
import { flag, list, printJson, str, UsageError, type Io, type ParsedArgs } from './command.js';
import { wantsJson, withArchive } from './context.js';
import { terminalText as tt } from './terminal-text.js';

const reportAndSubject = (args: ParsedArgs, usage: string): [string, string] => {
  const [, report, subject, ...rest] = args.positionals;
  if (report === undefined || subject === undefined || rest.length > 0) throw new UsageError(`name a report and a subject\nusage: ${usage}`);
  return [report, subject.toUpperCase()];
};

const needReason = (args: ParsedArgs): string => {
  const reason = str(args, 'reason');
  if (reason === undefined || reason.trim() === '') throw new UsageError('--reason is required: the decision is recorded with it (sealed under the report key)');
  return reason;
};

/** `--reference KIND:TEXT`, KIND one of number-record, dna, document (checked by the service). */
function references(args: ParsedArgs): CorroborationRef[] {
  return list(args, 'reference').map((r) => {
    const at = r.indexOf(':');
    if (at <= 0) throw new UsageError(`--reference takes KIND:TEXT (number-record, dna or document), got ${JSON.stringify(r)}`);
    return { kind: r.slice(0, at).trim() as CorroborationRef['kind'], reference: r.slice(at + 1) };
  });
}

/** `custody missing review-subject R S --accept|--reject|--level recognised|confirmed … --reason TEXT`. */
export async function runReviewSubject(args: ParsedArgs, io: Io, usage: string): Promise<number> {
  const [report, subject] = reportAndSubject(args, usage);
  const accept = flag(args, 'accept');
  const reject = flag(args, 'reject');
  const level = str(args, 'level');
  if ([accept, reject, level !== undefined].filter(Boolean).length !== 1) throw new UsageError(`say --accept, --reject or --level recognised|confirmed (one of them)\nusage: ${usage}`);
  const reason = needReason(args);
  if (level === undefined) {
    const r = await withArchive(args, io, 'write', 'missing review-subject', (a) => reviewSubjectLink(missingPorts(a), report, subject, accept ? 'accept' : 'reject', reason));
    if (wantsJson(args)) printJson(io, r);
    else
      io.stdout(
        `recorded (ledger entry ${r.seq}): subject ${r.subject} ${r.decision === 'accept' ? 'accepted as a candidate' : 'rejected'} for report ${r.report}; the reason is sealed under the report key\n`,
      );
    return 0;
  }
  let req: Parameters<typeof raiseLevel>[3];
  if (level === 'recognised') {
    const v = str(args, 'viewing');
    if (v === undefined || !/^\d+$/.test(v)) throw new UsageError('--level recognised needs --viewing SEQ: the ledger entry of the viewing in which the family recognised the subject');
    req = { level, viewing: Number(v), reason };
  } else if (level === 'confirmed') req = { level, references: references(args), reason };
  else throw new UsageError(`--level takes recognised or confirmed, got ${JSON.stringify(level)}`);
  const r = await withArchive(args, io, 'write', 'missing review-subject', (a) => raiseLevel(missingPorts(a), report, subject, req));
  if (wantsJson(args)) printJson(io, r);
  else io.stdout(`recorded (ledger entry ${r.seq}): report ${r.report} and subject ${r.subject} are now at level ${r.level}\n`);
  return 0;
}

/** `--shown ITEM:blurred|direct:recognised|not-recognised|unsure`, in the order shown. */
function shown(s: string): ViewingRequest['photographs'][number] {
  const [item = '', how = '', outcome = '', ...more] = s.split(':').map((x) => x.trim());
  if (item === '' || more.length > 0 || !['blurred', 'direct'].includes(how))
    throw new UsageError(`--shown takes ITEM:blurred|direct:recognised|not-recognised|unsure, got ${JSON.stringify(s)}`);
  return { item, blurred_first: how === 'blurred', outcome: outcome as ViewingRequest['photographs'][number]['outcome'] };
}

/** `custody missing viewing R S --attendee NAME[:RELATION]… --shown …… [--notes TEXT]`, or `--file SESSION.json`. */
export async function runViewing(args: ParsedArgs, io: Io, usage: string): Promise<number> {
  const [report, subject] = reportAndSubject(args, usage);
  const file = str(args, 'file');
  let req: ViewingRequest;
  if (file !== undefined) {
    try {
      req = JSON.parse(await readFile(file, 'utf8')) as ViewingRequest;
    } catch (e) {
      throw new UsageError(`cannot read ${file} as JSON: ${(e as Error).message}`);
    }
  } else {
    const attendees = list(args, 'attendee').map((a) => {
      const at = a.indexOf(':');
      return at < 0 ? { name: a, relation: null } : { name: a.slice(0, at), relation: a.slice(at + 1) };
    });
    req = { attendees, photographs: list(args, 'shown').map(shown), notes: str(args, 'notes') ?? null };
  }
  const r = await withArchive(args, io, 'write', 'missing viewing', (a) => recordViewing(missingPorts(a), report, subject, req));
  if (wantsJson(args)) printJson(io, r);
  else {
    io.stdout(`viewing recorded (ledger entry ${r.seq}) for report ${r.report} and subject ${r.subject}; the attendees are sealed under the report key\n`);
    r.photographs.forEach((p, i) => io.stdout(`  ${i + 1}. ${p.item}  ${p.blurred_first ? 'blurred first' : 'shown directly'}  ${p.outcome}\n`));
    if (r.recognised) io.stdout(`the family recognised a photograph: review-subject --level recognised --viewing ${r.seq} records it as the link's level\n`);
  }
  return 0;
}

/** `custody missing subjects R`: the report's links to subjects, decisions, levels, viewings. */
export async function runSubjects(args: ParsedArgs, io: Io, usage: string): Promise<number> {
  const [, report, ...rest] = args.positionals;
  if (report === undefined || rest.length > 0) throw new UsageError(`name a report\nusage: ${usage}`);
  const v = await withArchive(args, io, 'write', 'missing subjects', (a) => subjectLinksOf(missingPorts(a), report));
  if (wantsJson(args)) {
    printJson(io, v);
    return 0;
  }
  io.stdout(`report ${v.report}: ${v.links.length === 0 ? 'no subject reviewed' : `${v.links.length} subject(s) reviewed`}\n`);
  for (const l of v.links) {
    io.stdout(`  subject ${l.subject}: ${l.status === 'accept' ? `accepted, level ${l.level ?? '?'}` : 'rejected'}\n`);
    for (const e of l.events) {
      const what = e.action === 'missing.viewing' ? `viewing (${(e.facts.photographs as unknown[]).length} photograph(s))` : `${e.action.replace('missing.subject-', '')} ${e.value ?? ''}`;
      io.stdout(`    entry ${e.seq}  ${e.time.slice(0, 10)}  ${tt(e.actor)}  ${what}  ${tt(JSON.stringify(e.note))}\n`);
    }
  }
  return 0;
}

import { readFile, writeFile } from 'node:fs/promises';
import type { Archive } from '../app.js';
import { parseSubjectsCsv, parseSubjectsJson, subjectsCsv, subjectsForExport } from '../catalogue/subjects/index.js';
import { CatalogueLabels, itemText, subjectText } from '../catalogue/labels.service.js';
import { acceptSuggestions, suggestLinks, type LinkSuggestion } from '../catalogue/subjects/suggestions.service.js';
import {
  createSubject,
  importSubjects,
  linkItems,
  mergeSubjects,
  splitSubject,
  updateSubject,
  type SubjectInput,
} from '../catalogue/subjects/subjects.service.js';
import {
  flag,
  list,
  printJson,
  requireStr,
  str,
  UsageError,
  type Command,
  type Io,
  type ParsedArgs,
} from './command.js';
import { operationContext, wantsJson, withArchive } from './context.js';
import { terminalText as tt } from './terminal-text.js';
import { subjectDetail, subjectView } from '../catalogue/subjects/subject-view.service.js';

export const subjectCommand: Command = {
  name: 'subject',
  summary:
    'subjects: one person as catalogued (number, unit, sex, age band, dates, photographs); every change with a reason',
  usage:
    'custody subject add [--number TEXT] [--scheme ID] [--unit CODE|ALIAS] [--sex S] [--age-band B] [--date-of-death D] [--date-of-photography D] [--notes T] [--item ID|SHA256|DELIVERY:PATH]… --reason TEXT | ' +
    'subject edit ID [fields…] --reason TEXT | subject link|unlink ID --item ID… --reason TEXT | subject merge ID --into ID --reason TEXT | ' +
    'subject split ID --item ID… [fields…] --reason TEXT | subject show ID | subject history ID | subject list | ' +
    'subject import FILE.csv|FILE.json --reason TEXT [--valid-only] | subject export [--format csv|json] [--out FILE] | ' +
    'subject suggest [--accept ID… | --accept-all --reason TEXT] | ' +
    'subject pm ID [--set FIELD=VALUE… | --file PM.json --reason TEXT] (post-mortem identification data; `custody missing codebook` lists the fields)   (all with [--json]). ' +
    "An import's items column takes item ids, SHA-256 digests, or paths in a delivery (DELIVERY:path, or the path alone when only one delivery has it), separated by ';'.",
  options: {
    number: { type: 'string' },
    scheme: { type: 'string' },
    sex: { type: 'string' },
    'age-band': { type: 'string' },
    'date-of-death': { type: 'string' },
    'date-of-photography': { type: 'string' },
    notes: { type: 'string' },
    unit: { type: 'string' },
    item: { type: 'string', multiple: true },
    into: { type: 'string' },
    reason: { type: 'string' },
    'valid-only': { type: 'boolean' },
    accept: { type: 'string', multiple: true },
    'accept-all': { type: 'boolean' },
    format: { type: 'string' },
    out: { type: 'string' },
    set: { type: 'string', multiple: true },
    file: { type: 'string' },
  },
  async run(args, io) {
    const [action, id, ...rest] = args.positionals;
    if (rest.length > 0) throw new UsageError(`usage: ${this.usage}`);
    const needId = (): string => {
      if (id === undefined) throw new UsageError(`name the subject\nusage: ${this.usage}`);
      return id;
    };
    const reason = (): string => requireStr(args, 'reason', this);
    const write = async (fn: (a: Archive) => Promise<unknown>): Promise<number> => {
      const out = await withArchive(args, io, 'write', `subject ${action ?? ''}`, fn);
      if (wantsJson(args)) printJson(io, out ?? { ok: true });
      else io.stdout(`${typeof out === 'string' ? `subject ${out}` : 'done'}\n`);
      return 0;
    };
    switch (action) {
      case 'add':
        if (id !== undefined) throw new UsageError(`usage: ${this.usage}`);
        return write((a) => createSubject(a, operationContext(a), fieldsFrom(args), list(args, 'item'), reason()));
      case 'edit':
        return write((a) => updateSubject(a, operationContext(a), needId(), fieldsFrom(args), reason()));
      case 'link':
      case 'unlink':
        return write((a) =>
          linkItems(a, operationContext(a), needId(), list(args, 'item'), reason(), action === 'unlink'),
        );
      case 'merge':
        return write((a) => mergeSubjects(a, operationContext(a), requireStr(args, 'into', this), [needId()], reason()));
      case 'split':
        return write((a) =>
          splitSubject(a, operationContext(a), needId(), list(args, 'item'), fieldsFrom(args), reason()),
        );
      case 'pm':
        return (await import('./missing.command.js')).runSubjectPm(args, io, needId());
      case 'show':
      case 'history': {
        const subjectId = needId();
        const out = await withArchive(args, io, 'read', 'subject show', (a) =>
          subjectDetail(a.index, subjectId),
        );
        if (wantsJson(args)) printJson(io, action === 'history' ? out.history : out);
        else if (action === 'history')
          for (const h of out.history)
            io.stdout(
              `${String(h.seq).padStart(6)}  ${h.time}  ${tt(h.actor)}  ${h.action}  ${tt(h.reason)}\n`,
            );
        else
          io.stdout(
            `subject ${out.id} (${out.status})  number ${tt(out.number_raw ?? '-')} → ${out.number_normalised ?? '-'}  sex ${out.sex ?? '-'}  age ${out.age_band ?? '-'}  died ${out.date_of_death ?? '-'}  items ${out.items.join(', ')}\n`,
          );
        return 0;
      }
      case 'list': {
        const subjects = await withArchive(args, io, 'read', 'subject list', (a) =>
          a.index.listSubjects(),
        );
        if (wantsJson(args))
          printJson(
            io,
            subjects.map(subjectView),
          );
        else
          for (const s of subjects)
            io.stdout(
              `${s.id}  ${s.status.padEnd(6)}  ${s.number_normalised ?? '-'}  ${s.sex ?? '-'}  ${s.age_band ?? '-'}\n`,
            );
        return 0;
      }
      case 'import': {
        const file = needId();
        let text: string;
        try {
          text = await readFile(file, 'utf8');
        } catch (e) {
          throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
        }
        const parsed = /\.json$/i.test(file) ? parseSubjectsJson(text) : parseSubjectsCsv(text);
        const r = await withArchive(args, io, 'write', 'subject import', (a) =>
          importSubjects(a, operationContext(a), parsed.rows, parsed.errors, { validOnly: flag(args, 'valid-only'), reason: reason() }),
        );
        if (wantsJson(args)) printJson(io, r);
        else {
          for (const e of r.errors) io.stdout(`  ! row ${e.row}, ${tt(String(e.column))}: ${tt(e.reason)} (not imported)\n`);
          io.stdout(`${r.imported} subject(s) imported\n`);
        }
        return 0;
      }
      case 'export': {
        const rows = await withArchive(args, io, 'read', 'subject export', async (a) => {
          const links = new Map<string, string[]>();
          for (const l of await a.examinations.allSubjectItems()) links.set(l.subject_id, [...(links.get(l.subject_id) ?? []), l.item_id]);
          return subjectsForExport(await a.index.listSubjects(), links);
        });
        const format = str(args, 'format') ?? 'csv';
        if (format !== 'csv' && format !== 'json') throw new UsageError('--format is csv or json');
        const text = format === 'csv' ? subjectsCsv(rows) : `${JSON.stringify(rows, null, 2)}\n`;
        const out = str(args, 'out');
        if (out === undefined) io.stdout(text);
        else await writeFile(out, text);
        return 0;
      }
      case 'suggest': {
        const accept = list(args, 'accept');
        const all = flag(args, 'accept-all');
        if (accept.length > 0 || all) {
          if (accept.length > 0 && all) throw new UsageError('--accept ID… or --accept-all, not both');
          const r = await withArchive(args, io, 'write', 'subject suggest', (a) =>
            acceptSuggestions(a, operationContext(a), all ? 'all' : accept, reason()),
          );
          if (wantsJson(args)) printJson(io, { accepted: r.accepted.length, suggestions: r.accepted });
          else
            io.stdout(
              r.accepted.length === 0
                ? 'There were no link suggestions to accept; nothing was written.\n'
                : `${r.accepted.length} suggestion(s) accepted: ${r.accepted.reduce((n, s) => n + s.items.length, 0)} photograph(s) linked, in one ledger batch\n`,
            );
          return 0;
        }
        const { suggestions, labels } = await withArchive(args, io, 'read', 'subject suggest', async (a) => ({
          suggestions: await suggestLinks(a),
          labels: await CatalogueLabels.load(a),
        }));
        if (wantsJson(args))
          printJson(io, {
            count: suggestions.length,
            suggestions: suggestions.map((s) => ({
              ...s,
              item_labels: s.items.map((i) => labels.item(i)),
              subject_labels: s.subjects.map((x) => labels.subject(x)),
            })),
          });
        else printSuggestions(io, suggestions, labels);
        return 0;
      }
      case undefined:
      default:
        throw new UsageError(`subject what?\nusage: ${this.usage}`);
    }
  },
};

function fieldsFrom(args: ParsedArgs): SubjectInput {
  const out: SubjectInput = {};
  const set = (flag: string, key: keyof SubjectInput): void => {
    const v = str(args, flag);
    if (v !== undefined) out[key] = v === '' ? null : v;
  };
  set('number', 'number');
  set('scheme', 'schemeId');
  set('sex', 'sex');
  set('age-band', 'ageBand');
  set('date-of-death', 'dateOfDeath');
  set('date-of-photography', 'dateOfPhotography');
  set('notes', 'notes');
  set('unit', 'unit');
  return out;
}

function printSuggestions(io: Io, suggestions: readonly LinkSuggestion[], labels: CatalogueLabels): void {
  if (suggestions.length === 0) {
    io.stdout('No suggestions: no near-duplicate cluster or examiner decision joins an unlinked photograph to a subject.\n');
    return;
  }
  for (const s of suggestions) {
    const basis = s.basis.type === 'cluster' ? `near-duplicate cluster ${s.basis.cluster.slice(0, 16)}…` : `${s.basis.decision} decision, entry ${s.basis.seq}`;
    const photos = s.items.map((i) => `    ${itemText(labels.item(i), i)}  [${i}]\n`).join('');
    if (s.kind === 'link')
      io.stdout(`${s.id}  link to ${subjectText(labels.subject(s.subjects[0] ?? ''))}  (${basis}):\n${photos}`);
    else
      io.stdout(`${s.id}  review: ${s.subjects.map((x) => subjectText(labels.subject(x))).join(' and ')} share ${basis}; merge if they are one person:\n${photos}`);
  }
  io.stdout(`accept with: custody subject suggest --accept ID… --reason TEXT (or --accept-all)\n`);
}

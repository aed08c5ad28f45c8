import type { Archive } from '../app.js';
import {
  createSubject,
  linkItems,
  mergeSubjects,
  splitSubject,
  SubjectError,
  updateSubject,
  type SubjectInput,
} from '../catalogue/subjects/subjects.service.js';
import {
  countSubjects,
  SUBJECT_COUNTS_BY,
  type SubjectCountsBy,
} from '../catalogue/subjects/subject-counts.js';
import {
  list,
  printJson,
  requireStr,
  str,
  UsageError,
  type Command,
  type ParsedArgs,
} from './command.js';
import { atOption, wantsJson, withArchive } from './context.js';

export const subjectCommand: Command = {
  name: 'subject',
  summary:
    'subjects: one person as catalogued (number, unit, sex, age band, dates, photographs); every change with a reason',
  usage:
    'custody subject add [--number TEXT] [--scheme ID] [--sex S] [--age-band B] [--date-of-death D] [--date-of-photography D] [--notes T] [--item ID]… --reason TEXT | ' +
    'subject edit ID [fields…] --reason TEXT | subject link|unlink ID --item ID… --reason TEXT | subject merge ID --into ID --reason TEXT | ' +
    'subject split ID --item ID… [fields…] --reason TEXT | subject show ID | subject history ID | subject list [--at TREE-SIZE] | subject counts --by unit|month|unit-month [--at TREE-SIZE]   (all with [--json])',
  options: {
    number: { type: 'string' },
    scheme: { type: 'string' },
    sex: { type: 'string' },
    'age-band': { type: 'string' },
    'date-of-death': { type: 'string' },
    'date-of-photography': { type: 'string' },
    notes: { type: 'string' },
    item: { type: 'string', multiple: true },
    into: { type: 'string' },
    reason: { type: 'string' },
    by: { type: 'string' },
    at: { type: 'string' },
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
        return write((a) => createSubject(a, fieldsFrom(args), list(args, 'item'), reason()));
      case 'edit':
        return write((a) => updateSubject(a, needId(), fieldsFrom(args), reason()));
      case 'link':
      case 'unlink':
        return write((a) =>
          linkItems(a, needId(), list(args, 'item'), reason(), action === 'unlink'),
        );
      case 'merge':
        return write((a) => mergeSubjects(a, requireStr(args, 'into', this), [needId()], reason()));
      case 'split':
        return write((a) =>
          splitSubject(a, needId(), list(args, 'item'), fieldsFrom(args), reason()),
        );
      case 'show':
      case 'history': {
        const subjectId = needId();
        const out = await withArchive(args, io, 'read', 'subject show', async (a) => {
          const s = await a.index.getSubject(subjectId);
          if (s === undefined)
            throw new SubjectError('SUBJECT_NOT_FOUND', `no subject ${subjectId}`);
          const items = (await a.index.subjectItems(subjectId)).map((l) => l.item_id);
          const history = await a.index.subjectEvents(subjectId);
          return {
            ...s,
            fields: JSON.parse(s.fields_json) as unknown,
            fields_json: undefined,
            items,
            history,
          };
        });
        if (wantsJson(args)) printJson(io, action === 'history' ? out.history : out);
        else if (action === 'history')
          for (const h of out.history)
            io.stdout(
              `${String(h.seq).padStart(6)}  ${h.time}  ${h.actor}  ${h.action}  ${h.reason}\n`,
            );
        else
          io.stdout(
            `subject ${out.id} (${out.status})  number ${out.number_raw ?? '-'} → ${out.number_normalised ?? '-'}  sex ${out.sex ?? '-'}  age ${out.age_band ?? '-'}  died ${out.date_of_death ?? '-'}  items ${out.items.join(', ')}\n`,
          );
        return 0;
      }
      case 'list': {
        const subjects = await withArchive(
          args,
          io,
          'read',
          'subject list',
          (a) => a.index.listSubjects(),
          { at: atOption(args) },
        );
        if (wantsJson(args))
          printJson(
            io,
            subjects.map((s) => ({
              ...s,
              fields: JSON.parse(s.fields_json) as unknown,
              fields_json: undefined,
            })),
          );
        else
          for (const s of subjects)
            io.stdout(
              `${s.id}  ${s.status.padEnd(6)}  ${s.number_normalised ?? '-'}  ${s.sex ?? '-'}  ${s.age_band ?? '-'}\n`,
            );
        return 0;
      }
      case 'counts': {
        const by = str(args, 'by') ?? 'unit';
        if (!(SUBJECT_COUNTS_BY as readonly string[]).includes(by))
          throw new UsageError(`--by is unit, month or unit-month\nusage: ${this.usage}`);
        const counts = await withArchive(
          args,
          io,
          'read',
          'subject counts',
          async (a) => countSubjects(await a.index.listSubjects(), await a.index.listUnits(), by as SubjectCountsBy),
          { at: atOption(args) },
        );
        if (wantsJson(args)) printJson(io, counts);
        else {
          for (const r of counts.rows)
            io.stdout(
              `${String(r.count).padStart(6)}  ${r.unit === null ? (by === 'month' ? '' : 'no unit') : `${r.unit.code ?? '-'} ${r.unit.name_en}`}${r.month === null ? '' : `  ${r.month}`}\n`,
            );
          io.stdout(`${counts.total} subject(s)\n`);
        }
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
  return out;
}

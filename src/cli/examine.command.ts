import { readFile, writeFile } from 'node:fs/promises';
import {
  assignExaminers,
  caseForm,
  revealedCase,
  submitAnswer,
} from '../examination/blind/examination.service.js';
import { caseOutcomes, loadSample } from '../examination/blind/outcomes.js';
import { parseNonNegativeInt, printJson, requireStr, str, UsageError, type Command, type ParsedArgs } from './command.js';
import { atOption, configFrom, wantsJson, withArchive } from './context.js';
import { terminalText as tt } from './terminal-text.js';

export const examineCommand: Command = {
  name: 'examine',
  summary: 'blind, independent examination of a sample: assign examiners, print a case form, submit a sealed answer, see progress',
  usage:
    'custody examine assign PLAN --examiners A,B[,C…] [--per-case K] | examine form PLAN CASE [--out FILE] | ' +
    'examine submit PLAN CASE --form FILE.json | examine submit PLAN --forms FILE.jsonl (one {"case", "form"} per line) | examine status PLAN [--at N] | examine show PLAN CASE [--at N]   (as --actor / CUSTODY_ACTOR; all with [--json])',
  options: {
    examiners: { type: 'string' },
    'per-case': { type: 'string' },
    form: { type: 'string' },
    forms: { type: 'string' },
    out: { type: 'string' },
    at: { type: 'string' },
  },
  async run(args, io) {
    const [action, plan, caseId, ...rest] = args.positionals;
    if (rest.length > 0 || plan === undefined) throw new UsageError(`usage: ${this.usage}`);
    const needCase = (): string => {
      if (caseId === undefined) throw new UsageError(`name the case (a member of the plan: \`custody sample show ${plan}\`)\nusage: ${this.usage}`);
      return caseId;
    };
    const actor = configFrom(args, io).actor;
    switch (action) {
      case 'assign': {
        const examiners = requireStr(args, 'examiners', this).split(',');
        const perCaseText = str(args, 'per-case');
        const perCase = perCaseText === undefined ? undefined : parseNonNegativeInt(perCaseText, '--per-case');
        const out = await withArchive(args, io, 'write', 'examine assign', (a) => assignExaminers(a, plan, examiners, perCase));
        if (wantsJson(args)) printJson(io, { plan, ...out });
        else io.stdout(`${out.cases} cases assigned, ${out.perCase} examiners each\n`);
        return 0;
      }
      case 'form': {
        const form = await withArchive(args, io, 'read', 'examine form', (a) => caseForm(a, plan, needCase(), actor));
        const text = `${JSON.stringify(form, null, 2)}\n`;
        const out = str(args, 'out');
        if (out !== undefined) await writeFile(out, text, { flag: 'wx' });
        else io.stdout(text);
        return 0;
      }
      case 'submit': {
        if (str(args, 'forms') !== undefined) {
          if (caseId !== undefined) throw new UsageError('with --forms, the cases are named in the file');
          const forms = await readForms(str(args, 'forms') ?? '');
          const results = await withArchive(args, io, 'write', 'examine submit', async (a) => {
            const out = [];
            for (const f of forms) out.push({ case: f.case, ...(await submitAnswer(a, plan, f.case, actor, f.form)) });
            return out;
          });
          if (wantsJson(args)) printJson(io, { plan, examiner: actor, submitted: results });
          else io.stdout(`${results.length} sealed answer(s) submitted; ${results.filter((r) => r.revealed).length} case(s) complete and revealed\n`);
          return 0;
        }
        const form = await readForm(args, this.usage);
        const out = await withArchive(args, io, 'write', 'examine submit', (a) => submitAnswer(a, plan, needCase(), actor, form));
        if (wantsJson(args)) printJson(io, { plan, case: caseId, examiner: actor, ...out });
        else
          io.stdout(
            `sealed: commitment ${out.commitment} (${out.submitted} of ${out.assigned} examiners)` +
              (out.revealed ? '; every examiner has submitted, answers revealed\n' : '; answers stay sealed until the others submit\n'),
          );
        return 0;
      }
      case 'status': {
        const rows = await withArchive(args, io, 'read', 'examine status', async (a) => caseOutcomes(a, await loadSample(a, plan)), { at: atOption(args) });
        // Progress only: who has submitted, never what.
        const out = rows.map((c) => ({ case: c.case, examiners: c.examiners, submitted: c.submitted, status: c.status, disagreements: c.disagreements?.length ?? null }));
        if (wantsJson(args)) printJson(io, { plan, cases: out });
        else for (const c of out) io.stdout(`${c.case}\t${c.status}\t${c.submitted.length}/${c.examiners.length}${c.disagreements === null ? '' : `\t${c.disagreements} disagreement(s)`}\n`);
        return 0;
      }
      case 'show': {
        const c = await withArchive(args, io, 'read', 'examine show', (a) => revealedCase(a, plan, needCase()), { at: atOption(args) });
        if (wantsJson(args)) printJson(io, { plan, ...c });
        else {
          io.stdout(`case ${c.case}: ${c.status}\n`);
          for (const d of c.disagreements ?? []) io.stdout(`  ${d.field}: ${d.values.map((v) => `${tt(v.examiner)}=${tt(v.value || '(none)')}`).join(', ')}\n`);
          if ((c.disagreements ?? []).length === 0) io.stdout('  the examiners agree on every field\n');
        }
        return 0;
      }
      case undefined:
      default:
        throw new UsageError(`examine what? assign, form, submit, status or show\nusage: ${this.usage}`);
    }
  },
};

async function readForm(args: ParsedArgs, usage: string): Promise<unknown> {
  const file = str(args, 'form');
  if (file === undefined) throw new UsageError(`give the filled-in form: --form FILE.json\nusage: ${usage}`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read --form ${file}: ${(e as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    // A form printed by `examine form` carries the answers under "form"; a bare answer works too.
    return typeof parsed === 'object' && parsed !== null && 'form' in parsed ? (parsed).form : parsed;
  } catch (e) {
    throw new UsageError(`--form ${file} is not JSON: ${(e as Error).message}`);
  }
}

/** JSON lines of {case, form}: many cases from one file, for scripted use. Untrusted input. */
async function readForms(file: string): Promise<{ case: string; form: unknown }[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read --forms ${file}: ${(e as Error).message}`);
  }
  return text
    .split('\n')
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, n }) => {
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch (e) {
        throw new UsageError(`--forms ${file}, line ${n}: not JSON (${(e as Error).message})`);
      }
      if (typeof v !== 'object' || v === null || typeof (v as { case?: unknown }).case !== 'string' || !('form' in v))
        throw new UsageError(`--forms ${file}, line ${n}: expected {"case": ID, "form": {…}}`);
      return v as { case: string; form: unknown };
    });
}

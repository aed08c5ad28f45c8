import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import {
  assignExaminers,
  caseForm,
  closePlan,
  revealedCase,
  submitAnswer,
} from '../examination/blind/examination.service.js';
import { resolveAccountId } from '../accounts/accounts.service.js';
import { submitAnswers, type SubmitLine } from '../examination/blind/batch.service.js';
import {
  formCsv,
  parseFormCsv,
  readableSheet,
  caseOutcomes,
  caseRefs,
  loadSample,
  sampleCodebook,
} from '../examination/blind/index.js';
import { sameActor } from '../core/index.js';
import { signerFor } from './person-key.js';
import { previewPaths } from '../jobs/analysis-worker.service.js';
import { flag, parseNonNegativeInt, printJson, requireStr, str, UsageError, writeOutFile, type Command, type ParsedArgs } from './command.js';
import { atOption, configFrom, operationContext, wantsJson, withArchive } from './context.js';
import { terminalText as tt } from './terminal-text.js';

export const examineCommand: Command = {
  name: 'examine',
  summary: 'blind, independent examination of a sample: assign examiners, print a case form, submit a sealed answer, see progress',
  usage:
    'custody examine assign PLAN --examiners A,B[,C…] [--per-case K] | examine form PLAN CASE [--json] [--unblurred] [--out FILE] | examine form PLAN [CASE] --csv [--out FILE] | ' +
    'examine submit PLAN CASE --form FILE.json | examine submit PLAN --forms FILE.jsonl|FILE.csv (one {"case", "form"} per line, or the --csv sheet filled in; all lines or none) | examine status PLAN [--at N] | examine show PLAN CASE [--at N] | examine close PLAN   (submit with [--key-password-file FILE | --key-password-fd N] when the examiner has an enrolled key; as --actor / CUSTODY_ACTOR, an account id where the archive has accounts; CASE is the case code; all with [--json])',
  options: {
    examiners: { type: 'string' },
    'per-case': { type: 'string' },
    form: { type: 'string' },
    forms: { type: 'string' },
    out: { type: 'string' },
    csv: { type: 'boolean' },
    unblurred: { type: 'boolean' },
    'key-password-file': { type: 'string' },
    'key-password-fd': { type: 'string' },
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
        const out = await withArchive(args, io, 'write', 'examine assign', async (a) => {
          // Names of accounts become their ids (the service checks each is an examiner account).
          const ids = await Promise.all(examiners.map((e) => resolveAccountId({ listAccounts: () => a.index.listAccounts(), sealingKey: a.sealingKey }, e)));
          return assignExaminers(a, operationContext(a), plan, ids, perCase);
        });
        if (wantsJson(args)) printJson(io, { plan, ...out });
        else io.stdout(`${out.cases} cases assigned, ${out.perCase} examiners each\n`);
        return 0;
      }
      case 'form': {
        const out = str(args, 'out');
        const emit = async (text: string): Promise<void> => {
          if (out !== undefined) await writeOutFile(out, text);
          else io.stdout(text);
        };
        if (flag(args, 'csv')) {
          // An answer sheet for the examiner's cases still to answer (or the one named).
          const sheet = await withArchive(args, io, 'read', 'examine form --csv', async (a) => {
            const sample = await loadSample(a, plan);
            const refs = await caseRefs(a, sample);
            const mine = (await caseOutcomes(a, sample))
              .filter((c) => c.examiners.some((e) => sameActor(e, actor)) && !c.submitted.some((e) => sameActor(e, actor)))
              .map((c) => refs.shown(c.case));
            const cases = caseId === undefined ? mine : (await caseForm(a, operationContext(a), plan, caseId, actor)).case;
            return formCsv(sampleCodebook(sample), typeof cases === 'string' ? [cases] : cases);
          });
          await emit(sheet);
          return 0;
        }
        const form = await withArchive(args, io, 'read', 'examine form', async (a) => {
          const f = await caseForm(a, operationContext(a), plan, needCase(), actor);
          // Blurred previews by default (--unblurred for the plain ones), as `custody analyze` made them.
          const images = f.images.map((i) => {
            const paths = previewPaths(a, i.sha256, 256);
            const path = flag(args, 'unblurred') ? paths.plain : paths.blurred;
            return { item: i.item, sha256: i.sha256, preview: existsSync(path) ? path : null };
          });
          return { f, images, codebook: sampleCodebook(await loadSample(a, plan)) };
        });
        await emit(wantsJson(args) ? `${JSON.stringify(form.f, null, 2)}\n` : readableSheet(form.codebook, form.f, form.images));
        return 0;
      }
      case 'submit': {
        const formsFile = str(args, 'forms');
        if (formsFile !== undefined) {
          if (caseId !== undefined) throw new UsageError('with --forms, the cases are named in the file');
          const text = await readText(formsFile, '--forms');
          const r = await withArchive(args, io, 'write', 'examine submit', async (a) =>
            submitAnswers(a, operationContext(a), plan, actor, isCsv(formsFile, text) ? parseFormCsv(sampleCodebook(await loadSample(a, plan)), text) : parseFormLines(text), await signerFor(a, args, io, actor)),
          );
          if (wantsJson(args)) printJson(io, { plan, examiner: actor, submitted: r.written, skipped: r.skipped });
          else
            io.stdout(
              `${r.written.length} sealed answer(s) submitted; ${r.revealed} case(s) complete and revealed` +
                (r.skipped.length > 0 ? `; ${r.skipped.length} line(s) skipped, already submitted with the same answer\n` : '\n'),
            );
          return 0;
        }
        const form = await readForm(args, this.usage);
        const out = await withArchive(args, io, 'write', 'examine submit', async (a) => submitAnswer(a, operationContext(a), plan, needCase(), actor, form, await signerFor(a, args, io, actor)));
        if (wantsJson(args)) printJson(io, { plan, examiner: actor, ...out });
        else
          io.stdout(
            `sealed: commitment ${out.commitment} (${out.submitted} of ${out.assigned} examiners)` +
              (out.revealed ? '; every examiner has submitted, answers revealed\n' : '; answers stay sealed until the others submit\n'),
          );
        return 0;
      }
      case 'status': {
        const out = await withArchive(
          args,
          io,
          'read',
          'examine status',
          async (a) => {
            const sample = await loadSample(a, plan);
            const refs = await caseRefs(a, sample);
            const rows = await caseOutcomes(a, sample);
            // Progress only: who has submitted, never what. An examiner of the plan sees their own
            // queue, by case code: not which subjects, nor the others' cases.
            const team = (await a.index.listAccounts()).length > 0;
            const mine = team ? rows.filter((c) => c.examiners.some((e) => sameActor(e, actor))) : [];
            const shown = mine.length > 0 ? mine : rows;
            // Not even how many fields the others disagreed on, before the examiner's last case.
            const unfinished = mine.some((c) => !c.submitted.some((e) => sameActor(e, actor)));
            return shown.map((c) => ({ case: refs.shown(c.case), examiners: c.examiners, submitted: c.submitted, status: c.status, disagreements: unfinished ? null : (c.disagreements?.length ?? null) }));
          },
          { at: atOption(args) },
        );
        if (wantsJson(args)) printJson(io, { plan, cases: out });
        else for (const c of out) io.stdout(`${c.case}\t${c.status}\t${c.submitted.length}/${c.examiners.length}${c.disagreements === null ? '' : `\t${c.disagreements} disagreement(s)`}\n`);
        return 0;
      }
      case 'show': {
        const c = await withArchive(args, io, 'read', 'examine show', (a) => revealedCase(a, operationContext(a), plan, needCase(), actor), { at: atOption(args) });
        if (wantsJson(args)) printJson(io, { plan, ...c });
        else {
          io.stdout(`case ${c.case}: ${c.status}\n`);
          for (const d of c.disagreements ?? []) io.stdout(`  ${d.field}: ${d.values.map((v) => `${tt(v.examiner)}=${tt(v.value || '(none)')}`).join(', ')}\n`);
          if ((c.disagreements ?? []).length === 0) io.stdout('  the examiners agree on every field\n');
        }
        return 0;
      }
      case 'close': {
        // Publishes the plan's case-code key: anyone can then link codes to cases.
        const r = await withArchive(args, io, 'write', 'examine close', (a) => closePlan(a, operationContext(a), plan));
        if (wantsJson(args)) printJson(io, r);
        else io.stdout(`plan ${r.plan} closed (entry ${r.seq}): its case-code key is published, ${r.cases} case codes can be linked\n`);
        return 0;
      }
      case undefined:
      default:
        throw new UsageError(`examine what? assign, form, submit, status, show or close\nusage: ${this.usage}`);
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

async function readText(file: string, option: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${option} ${file}: ${(e as Error).message}`);
  }
}

/** A .csv file, or (whatever its name) text whose first line is the answer sheet's header. */
function isCsv(file: string, text: string): boolean {
  const ext = extname(file).toLowerCase();
  if (ext === '.csv') return true;
  if (ext === '.jsonl' || ext === '.json' || ext === '.ndjson') return false;
  return /^\uFEFF?"?case"?,/.test(text);
}

/** JSON lines of {case, form}: many cases from one file. Untrusted input; a bad line is reported with the others. */
function parseFormLines(text: string): SubmitLine[] {
  const out: SubmitLine[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      out.push({ line: i + 1, case: null, form: null, problem: { field: null, message: `not JSON (${(e as Error).message})` } });
      return;
    }
    const c = typeof v === 'object' && v !== null ? (v as { case?: unknown }).case : undefined;
    if (typeof c !== 'string' || !('form' in (v as object)))
      out.push({ line: i + 1, case: typeof c === 'string' ? c : null, form: null, problem: { field: null, message: 'expected {"case": ID, "form": {…}}' } });
    else out.push({ line: i + 1, case: c, form: (v as { form: unknown }).form });
  });
  return out;
}

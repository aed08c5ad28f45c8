import { readFile } from 'node:fs/promises';
import { adjudicateCase, revealedCase } from '../examination/blind/examination.service.js';
import { adjudicateCases, type AdjudicateLine } from '../examination/blind/batch.service.js';
import { ExamError, caseOutcomes, loadSample } from '../examination/blind/index.js';
import type { AdjudicationDecision } from '../examination/commitment/index.js';
import { list, printJson, str, UsageError, type Command } from './command.js';
import { configFrom, operationContext, wantsJson, withArchive } from './context.js';
import { signerFor } from './person-key.js';
import { terminalText as tt } from './terminal-text.js';

export const adjudicateCommand: Command = {
  name: 'adjudicate',
  summary: "decide where a case's examiners disagree, with a reason for each decision (after every answer is revealed)",
  usage:
    'custody adjudicate PLAN [CASE] --list | custody adjudicate PLAN --batch FILE.json|FILE.jsonl ([{"case", "decisions": [{field, value, reason}]}], or one {"case", "decisions"} per line; all cases or none) | custody adjudicate PLAN CASE --set FIELD=VALUE… --reason TEXT | custody adjudicate PLAN CASE --decisions FILE.json   (as --actor; [--key-password-file FILE | --key-password-fd N] when the adjudicator has an enrolled key; [--json])',
  options: {
    list: { type: 'boolean' },
    set: { type: 'string', multiple: true },
    reason: { type: 'string' },
    decisions: { type: 'string' },
    batch: { type: 'string' },
    'key-password-file': { type: 'string' },
    'key-password-fd': { type: 'string' },
  },
  async run(args, io) {
    const [plan, caseId, ...rest] = args.positionals;
    const batch = str(args, 'batch');
    if (args.values.list === true && plan !== undefined && caseId === undefined) {
      // Every revealed case still waiting for a decision, with its disagreements.
      const pending = await withArchive(args, io, 'read', 'adjudicate --list', async (a) =>
        (await caseOutcomes(a, await loadSample(a, plan))).filter((c) => c.status === 'awaiting_adjudication'),
      );
      const out = pending.map((c) => ({ case: c.case, examiners: c.examiners, disagreements: c.disagreements }));
      if (wantsJson(args)) printJson(io, { plan, cases: out });
      else for (const c of out) for (const d of c.disagreements ?? []) io.stdout(`${c.case}\t${d.field}\t${d.values.map((v) => `${tt(v.examiner)}=${tt(v.value || '(none)')}`).join('\t')}\n`);
      return 0;
    }
    if (batch !== undefined && plan !== undefined && caseId === undefined) {
      const lines = await readBatch(batch);
      const adjudicator = configFrom(args, io).actor;
      const r = await withArchive(args, io, 'write', 'adjudicate', async (a) => adjudicateCases(a, operationContext(a), plan, adjudicator, lines, await signerFor(a, args, io, adjudicator)));
      if (wantsJson(args)) printJson(io, { plan, adjudicator, adjudicated: r.written.length, skipped: r.skipped });
      else io.stdout(`${r.written.length} case(s) adjudicated${r.skipped.length > 0 ? `; ${r.skipped.length} skipped, already adjudicated with the same decisions` : ''}\n`);
      return 0;
    }
    if (rest.length > 0 || plan === undefined || caseId === undefined) throw new UsageError(`usage: ${this.usage}`);
    if (args.values.list === true) {
      const c = await withArchive(args, io, 'read', 'adjudicate --list', async (a) => {
        try {
          return await revealedCase(a, operationContext(a), plan, caseId);
        } catch (e) {
          if (e instanceof ExamError && e.code === 'EXAMINATION_SEALED')
            throw new ExamError('EXAMINATION_CASE_UNFINISHED', `case ${caseId} is unfinished: ${e.message}`, { details: e.details });
          throw e;
        }
      });
      if (wantsJson(args)) printJson(io, { plan, case: caseId, adjudicated: c.adjudicated, disagreements: c.disagreements });
      else for (const d of c.disagreements ?? []) io.stdout(`${d.field}\t${d.values.map((v) => `${tt(v.examiner)}=${tt(v.value || '(none)')}`).join('\t')}\n`);
      return 0;
    }
    const decisions = await readDecisions(str(args, 'decisions'), list(args, 'set'), str(args, 'reason'), this.usage);
    const adjudicator = configFrom(args, io).actor;
    const c = await withArchive(args, io, 'write', 'adjudicate', async (a) => adjudicateCase(a, operationContext(a), plan, caseId, decisions, adjudicator, await signerFor(a, args, io, adjudicator)));
    if (wantsJson(args)) printJson(io, { plan, case: caseId, adjudicator, decisions, final: c.final });
    else io.stdout(`case ${caseId} adjudicated: ${decisions.length} decision(s)\n`);
    return 0;
  },
};

async function readDecisions(file: string | undefined, sets: string[], reason: string | undefined, usage: string): Promise<AdjudicationDecision[]> {
  if (file !== undefined) {
    if (sets.length > 0) throw new UsageError('give --decisions or --set, not both');
    return (await readJsonArray(file, '--decisions')) as AdjudicationDecision[];
  }
  if (sets.length === 0) throw new UsageError(`nothing decided: give --set FIELD=VALUE (see --list) or --decisions FILE\nusage: ${usage}`);
  return sets.map((s) => {
    const eq = s.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set ${s}: expected FIELD=VALUE, e.g. findings.burns.value=present`);
    return { field: s.slice(0, eq), value: s.slice(eq + 1), reason: reason ?? '' };
  });
}

async function readJsonArray(file: string, option: string): Promise<unknown[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read ${option} ${file}: ${(e as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new UsageError(`${option} ${file}: expected a JSON array`);
  return parsed as unknown[];
}

/**
 * A batch file: a JSON array of {case, decisions}, or JSON lines of them. Each case keeps the file
 * line where it starts, for the error report. Untrusted input.
 */
async function readBatch(file: string): Promise<AdjudicateLine[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read --batch ${file}: ${(e as Error).message}`);
  }
  let items: { line: number; value: unknown; problem?: string }[];
  if (text.trimStart().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`--batch ${file} is not JSON: ${(e as Error).message}`);
    }
    const starts = elementLines(text);
    items = (parsed as unknown[]).map((value, i) => ({ line: starts[i] ?? 1, value }));
  } else {
    items = [];
    text.split('\n').forEach((raw, i) => {
      if (raw.trim() === '') return;
      try {
        items.push({ line: i + 1, value: JSON.parse(raw) });
      } catch (e) {
        items.push({ line: i + 1, value: null, problem: `not JSON (${(e as Error).message})` });
      }
    });
  }
  return items.map(({ line, value, problem }): AdjudicateLine => {
    const v = value as { case?: unknown; decisions?: unknown } | null;
    const caseId = typeof v?.case === 'string' ? v.case : null;
    if (problem !== undefined || caseId === null || !Array.isArray(v?.decisions))
      return { line, case: caseId, decisions: [], problem: { field: null, message: problem ?? 'expected {"case": ID, "decisions": [{field, value, reason}, …]}' } };
    return { line, case: caseId, decisions: v.decisions as AdjudicationDecision[] };
  });
}

/** The line on which each top-level element of a JSON array starts (the text parsed already). */
function elementLines(text: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  let line = 1;
  let inString = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') line++;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') continue;
    if (depth === 1 && expectElement && ch !== ']') {
      lines.push(line);
      expectElement = false;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 1) expectElement = true;
  }
  return lines;
}

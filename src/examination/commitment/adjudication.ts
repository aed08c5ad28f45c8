// What goes to the adjudicator, and the final answer once they have decided. Pure functions over
// answers that have already been revealed and checked against their commitments.
import {
  dependentFields,
  ExaminationError,
  impliedValue,
  parseExaminationForm,
  type Codebook,
  type ExaminationAnswer,
} from '../codebook/index.js';

export interface ExaminerAnswer {
  readonly examiner: string;
  readonly answer: ExaminationAnswer;
}

/**
 * One field on which the examiners differ. `field` is 'sex', 'age_band',
 * 'findings.<code>.value' or 'findings.<code>.regions'; `values` holds every examiner's value,
 * in the order given. A regions value is the sorted region codes joined by ',' and '' when the
 * examiner recorded none (the finding not present).
 */
export interface Disagreement {
  readonly field: string;
  readonly values: readonly { readonly examiner: string; readonly value: string }[];
}

export interface AdjudicationDecision {
  readonly field: string;
  /** The decided value, spelled as in Disagreement.values (regions: 'chest,back', or ''). */
  readonly value: string;
  readonly reason: string;
}

/**
 * Every field on which the examiners' answers differ, in codebook order. Each answer is checked
 * against `codebook` first (ExaminationError 'FORM_INVALID', naming the examiner). Regions are
 * compared for regional findings whenever an examiner recorded the finding present, so a
 * disputed value also brings its regions to the adjudicator.
 *
 * @example
 *   disagreements(cb, [{ examiner: 'A', answer: a }, { examiner: 'B', answer: b }])
 *   // [{ field: 'findings.burns.value', values: [{ examiner: 'A', value: 'present' }, …] }]
 */
export function disagreements(
  codebook: Codebook,
  answers: readonly ExaminerAnswer[],
): Disagreement[] {
  const rows = checkAnswers(codebook, answers).map(({ examiner, answer }) => ({
    examiner,
    fields: flatten(codebook, answer),
  }));
  const out: Disagreement[] = [];
  for (const field of fieldNames(codebook)) {
    const values = rows.map((r) => ({ examiner: r.examiner, value: r.fields.get(field) ?? '' }));
    if (new Set(values.map((v) => v.value)).size > 1) out.push({ field, values });
  }
  return out;
}

/**
 * The final answer: the examiners' common value on every field where they agree, the
 * adjudicator's decision on every field where they do not. Refuses a disagreement left without a
 * decision ('ADJUDICATION_INCOMPLETE'), a decision on a field without disagreement
 * ('ADJUDICATION_UNNEEDED'), a decision without a reason ('ADJUDICATION_REASON_MISSING'), and
 * decisions that are malformed, repeated or make an invalid answer ('ADJUDICATION_INVALID').
 * The adjudicator may choose a value no examiner gave. Notes are not carried into the final
 * answer; the decisions and their reasons are the record of the adjudication.
 */
export function applyAdjudication(
  codebook: Codebook,
  answers: readonly ExaminerAnswer[],
  decisions: readonly AdjudicationDecision[],
): ExaminationAnswer {
  const first = answers[0];
  if (first === undefined) {
    throw new ExaminationError('ADJUDICATION_INVALID', 'there are no answers to adjudicate');
  }
  const disputed = new Set(disagreements(codebook, answers).map((d) => d.field));
  const decided = checkDecisions(decisions, decidable(codebook, disputed, decisions));
  const fields = flatten(codebook, first.answer);
  for (const [field, value] of decided) fields.set(field, value);
  // The form's dependency rules: a decided value brings the fields that follow from it. Those
  // with only one possible value take it; those that need a value (the regions of a finding
  // decided 'present') must be decided unless the examiners already agree on a usable one.
  const missing = [...disputed].filter((f) => !decided.has(f));
  for (const [field, value] of [...decided]) {
    for (const dep of dependentFields(codebook, field)) {
      if (decided.has(dep)) continue;
      const implied = impliedValue(dep, value);
      if (implied !== undefined) fields.set(dep, implied);
      else if (!disputed.has(dep) && (fields.get(dep) ?? '') === '') missing.push(dep);
      const at = missing.indexOf(dep);
      if (implied !== undefined && at >= 0) missing.splice(at, 1);
    }
  }
  if (missing.length > 0) {
    throw new ExaminationError('ADJUDICATION_INCOMPLETE', `no decision on ${missing.join(', ')}`, {
      details: { fields: missing },
    });
  }
  try {
    return parseExaminationForm(codebook, unflatten(codebook, fields));
  } catch (e) {
    if (!(e instanceof ExaminationError) || e.code !== 'FORM_INVALID') throw e;
    const message = `the decisions do not make a valid answer: ${e.message}`;
    throw new ExaminationError('ADJUDICATION_INVALID', message, {
      cause: e,
      details: e.details,
    });
  }
}

function checkAnswers(codebook: Codebook, answers: readonly ExaminerAnswer[]): ExaminerAnswer[] {
  const names = new Set<string>();
  return answers.map(({ examiner, answer }, i) => {
    if (typeof examiner !== 'string' || examiner === '' || names.has(examiner)) {
      throw new ExaminationError(
        'ADJUDICATION_INVALID',
        `answer ${i}: the examiner must be named, once (got ${JSON.stringify(examiner)})`,
      );
    }
    names.add(examiner);
    try {
      return { examiner, answer: parseExaminationForm(codebook, answer) };
    } catch (e) {
      if (!(e instanceof ExaminationError)) throw e;
      throw new ExaminationError(e.code, `examiner ${examiner}: ${e.message}`, {
        cause: e,
        details: { ...e.details, examiner },
      });
    }
  });
}

/** The disputed fields, and the fields that depend on a disputed field being decided. */
function decidable(
  codebook: Codebook,
  disputed: ReadonlySet<string>,
  decisions: readonly AdjudicationDecision[],
): Set<string> {
  const out = new Set(disputed);
  for (const d of decisions as readonly (Partial<AdjudicationDecision> | null)[]) {
    if (typeof d?.field === 'string' && disputed.has(d.field))
      for (const dep of dependentFields(codebook, d.field)) out.add(dep);
  }
  return out;
}

/** Decided value by field, after checking each decision. Untrusted input: from the CLI or API. */
function checkDecisions(
  decisions: readonly AdjudicationDecision[],
  disputed: ReadonlySet<string>,
): Map<string, string> {
  const decided = new Map<string, string>();
  decisions.forEach((d: Partial<AdjudicationDecision> | null, i) => {
    if (typeof d?.field !== 'string' || typeof d.value !== 'string') {
      throw new ExaminationError('ADJUDICATION_INVALID', `decision ${i}: expected field and value`);
    }
    if (decided.has(d.field)) {
      throw new ExaminationError('ADJUDICATION_INVALID', `${d.field}: decided twice`, {
        details: { field: d.field },
      });
    }
    if (!disputed.has(d.field)) {
      throw new ExaminationError(
        'ADJUDICATION_UNNEEDED',
        `${d.field}: the examiners did not disagree here, and it does not follow from a decided field, so there is nothing to decide`,
        { details: { field: d.field } },
      );
    }
    if (typeof d.reason !== 'string' || d.reason.trim() === '') {
      throw new ExaminationError('ADJUDICATION_REASON_MISSING', `${d.field}: give a reason`, {
        details: { field: d.field },
      });
    }
    decided.set(d.field, d.value);
  });
  return decided;
}

/** The comparable fields of a codebook, in the order disagreements are listed. */
function fieldNames(codebook: Codebook): string[] {
  const names = ['sex', 'age_band'];
  for (const f of codebook.findings) {
    names.push(`findings.${f.code}.value`);
    if (f.regional) names.push(`findings.${f.code}.regions`);
  }
  return names;
}

function flatten(codebook: Codebook, answer: ExaminationAnswer): Map<string, string> {
  const fields = new Map<string, string>([
    ['sex', answer.sex],
    ['age_band', answer.age_band],
  ]);
  for (const f of codebook.findings) {
    const a = answer.findings[f.code];
    if (a === undefined) continue; // cannot happen after parseExaminationForm
    fields.set(`findings.${f.code}.value`, a.value);
    if (f.regional) fields.set(`findings.${f.code}.regions`, (a.regions ?? []).join(','));
  }
  return fields;
}

/** Back to a form for parseExaminationForm, which checks the decided values. */
function unflatten(codebook: Codebook, fields: ReadonlyMap<string, string>): unknown {
  const findings: Record<string, { value: string | undefined; regions?: string[] }> = {};
  for (const f of codebook.findings) {
    const value = fields.get(`findings.${f.code}.value`);
    const regions = fields.get(`findings.${f.code}.regions`);
    findings[f.code] =
      f.regional && regions !== undefined ? { value, regions: splitRegions(regions) } : { value };
  }
  return { sex: fields.get('sex'), age_band: fields.get('age_band'), findings };
}

function splitRegions(value: string): string[] {
  return value.trim() === '' ? [] : value.split(',').map((r) => r.trim());
}

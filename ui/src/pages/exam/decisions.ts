// The adjudicator's decisions, from what the page shows: the answers flattened as the adjudication
// names their fields, the disputed fields, and the fields that follow from a decided value (the
// regions of a finding decided 'present'), which the adjudicator may set too.

/** Every field of an answer, as the adjudication names them ('findings.<code>.value', '….regions'). */
export function fieldsOf(answer: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  for (const k of ['sex', 'age_band']) if (typeof answer[k] === 'string') out.set(k, answer[k]);
  const findings = (answer.findings ?? {}) as Record<
    string,
    { value?: string; regions?: string[] }
  >;
  for (const [code, a] of Object.entries(findings)) {
    out.set(`findings.${code}.value`, a.value ?? '');
    if (a.regions !== undefined) out.set(`findings.${code}.regions`, a.regions.join(','));
  }
  return out;
}

export interface Dependent {
  /** The decided field it follows from. */
  value: string;
  /** The field that follows (a finding's regions). */
  field: string;
}

/** The regions fields that follow from a disputed finding value and are not disputed themselves. */
export function dependentsOf(disputed: readonly string[], fields: readonly string[]): Dependent[] {
  return disputed
    .map((f) => /^findings\.([^.]+)\.value$/.exec(f)?.[1])
    .filter((c): c is string => c !== undefined)
    .map((c) => ({ value: `findings.${c}.value`, field: `findings.${c}.regions` }))
    .filter((d) => fields.includes(d.field) && !disputed.includes(d.field));
}

/** The dependents shown: those whose finding is decided 'present'. */
export function shownDependents(
  deps: readonly Dependent[],
  values: Record<string, string>,
): Dependent[] {
  return deps.filter((d) => values[d.value] === 'present');
}

/** The decisions sent: every disputed field, and each shown dependent the adjudicator set. */
export function decisionsOf(
  disputed: readonly string[],
  shown: readonly Dependent[],
  values: Record<string, string>,
  reasons: Record<string, string>,
): { field: string; value: string; reason: string }[] {
  return [...disputed, ...shown.map((d) => d.field).filter((f) => (values[f] ?? '') !== '')].map(
    (field) => ({ field, value: values[field] ?? '', reason: reasons[field] ?? '' }),
  );
}

import { useTranslation } from 'react-i18next';
import type { Codebook, FormState, Term } from './types';

/** A blank form for the codebook (as the server's blankForm): nothing answered. */
export function blankFormOf(codebook: Codebook): FormState {
  const findings: FormState['findings'] = {};
  for (const f of codebook.findings)
    findings[f.code] = f.regional ? { value: null, regions: [] } : { value: null };
  return { sex: null, age_band: null, findings, notes: '' };
}

/** The fields still to answer, by their labels. */
export function missingOf(codebook: Codebook, form: FormState): string[] {
  const out: string[] = [];
  if (form.sex === null) out.push('sex');
  if (form.age_band === null) out.push('age_band');
  for (const f of codebook.findings) {
    const a = form.findings[f.code];
    if (a?.value == null) out.push(f.label);
    else if (f.regional && a.value === 'present' && (a.regions ?? []).length === 0)
      out.push(f.label);
  }
  return out;
}

function Choice({
  name,
  legend,
  definition,
  terms,
  value,
  onChange,
  testId,
  codebookText,
}: {
  name: string;
  legend: string;
  definition?: string;
  terms: readonly Term[];
  value: string | null;
  onChange: (v: string) => void;
  testId: string;
  /** The legend is the codebook's own text (English), not the page's. */
  codebookText?: boolean;
}) {
  const descId = `${name}-def`;
  return (
    <fieldset
      className="choice"
      data-testid={testId}
      aria-describedby={definition === undefined ? undefined : descId}
    >
      <legend>
        {codebookText ? (
          <span lang="en" dir="auto">
            {legend}
          </span>
        ) : (
          legend
        )}
      </legend>
      {definition !== undefined && (
        <p id={descId} className="definition" lang="en" dir="auto">
          {definition}
        </p>
      )}
      <div className="options">
        {terms.map((term) => (
          <label key={term.code} title={term.definition}>
            <input
              type="radio"
              name={name}
              value={term.code}
              checked={value === term.code}
              onChange={() => onChange(term.code)}
            />
            <span lang="en" dir="auto">
              {term.label}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function TermList({ summary, terms }: { summary: string; terms: readonly Term[] }) {
  return (
    <details className="term-list">
      <summary>{summary}</summary>
      <dl>
        {terms.map((term) => (
          <div key={term.code}>
            <dt lang="en" dir="auto">
              {term.label}
            </dt>
            <dd lang="en" dir="auto">
              {term.definition}
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** The codebook's form: every finding with its definition and allowed values, as radio groups (arrow keys move within a group). */
export function CodebookForm({
  codebook,
  form,
  onChange,
}: {
  codebook: Codebook;
  form: FormState;
  onChange: (f: FormState) => void;
}) {
  const { t } = useTranslation();
  const setFinding = (code: string, next: { value: string | null; regions?: string[] }): void =>
    onChange({ ...form, findings: { ...form.findings, [code]: next } });
  return (
    <div className="codebook-form" data-testid="codebook-form">
      <p className="muted small">{t('exam.case.codebookLanguage')}</p>
      <p className="instructions" lang="en" dir="auto">
        {codebook.instructions}
      </p>
      <TermList summary={t('exam.case.scale')} terms={codebook.values} />
      <Choice
        name="sex"
        legend={t('exam.case.sex')}
        terms={codebook.sexes}
        value={form.sex}
        onChange={(v) => onChange({ ...form, sex: v })}
        testId="field-sex"
      />
      <Choice
        name="age_band"
        legend={t('exam.case.ageBand')}
        terms={codebook.ageBands}
        value={form.age_band}
        onChange={(v) => onChange({ ...form, age_band: v })}
        testId="field-age_band"
      />
      <h3>{t('exam.case.findings')}</h3>
      {codebook.findings.map((f) => {
        const a = form.findings[f.code] ?? { value: null };
        return (
          <div key={f.code} className="finding">
            <Choice
              name={`finding-${f.code}`}
              legend={f.label}
              definition={f.definition}
              terms={codebook.values}
              value={a.value}
              onChange={(v) =>
                setFinding(
                  f.code,
                  f.regional
                    ? { value: v, regions: v === 'present' ? (a.regions ?? []) : [] }
                    : { value: v },
                )
              }
              testId={`finding-${f.code}`}
              codebookText
            />
            {f.regional && a.value === 'present' && (
              <fieldset className="regions" data-testid={`regions-${f.code}`}>
                <legend>{t('exam.case.regions', { finding: f.label })}</legend>
                <div className="options">
                  {codebook.regions.map((r) => (
                    <label key={r.code} title={r.definition}>
                      <input
                        type="checkbox"
                        checked={(a.regions ?? []).includes(r.code)}
                        onChange={(e) => {
                          const rest = (a.regions ?? []).filter((x) => x !== r.code);
                          setFinding(f.code, {
                            value: 'present',
                            regions: e.target.checked ? [...rest, r.code].sort() : rest,
                          });
                        }}
                      />
                      <span lang="en" dir="auto">
                        {r.label}
                      </span>
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
          </div>
        );
      })}
      <label className="notes">
        {t('exam.case.notes')}
        <textarea
          value={form.notes}
          rows={4}
          onChange={(e) => onChange({ ...form, notes: e.target.value })}
        />
      </label>
    </div>
  );
}

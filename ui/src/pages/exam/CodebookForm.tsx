import { useTranslation } from 'react-i18next';
import { codebookText, type CodebookText } from './codebook-text';
import type { Codebook, FormState, Term } from './types';

/** A blank form for the codebook (as the server's blankForm): nothing answered. */
export function blankFormOf(codebook: Codebook): FormState {
  const findings: FormState['findings'] = {};
  for (const f of codebook.findings)
    findings[f.code] = f.regional ? { value: null, regions: [] } : { value: null };
  return { sex: null, age_band: null, findings, notes: '' };
}

/** The fields still to answer, by their labels (in the language the codebook is shown in). */
export function missingOf(codebook: Codebook, form: FormState, text?: CodebookText): string[] {
  const out: string[] = [];
  const label = (f: Codebook['findings'][number]) => text?.term('findings', f).label ?? f.label;
  if (form.sex === null) out.push('sex');
  if (form.age_band === null) out.push('age_band');
  for (const f of codebook.findings) {
    const a = form.findings[f.code];
    if (a?.value == null) out.push(label(f));
    else if (f.regional && a.value === 'present' && (a.regions ?? []).length === 0)
      out.push(label(f));
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
  text,
  source,
}: {
  name: string;
  legend: string;
  definition?: string;
  /** The allowed values, already in the language shown. */
  terms: readonly Term[];
  value: string | null;
  onChange: (v: string) => void;
  testId: string;
  /** The legend is the codebook's own text, not the page's. */
  codebookText?: boolean;
  text: CodebookText;
  /** The English source of a translated legend and definition, shown on demand. */
  source?: { label: string; definition: string };
}) {
  const { t } = useTranslation();
  const descId = `${name}-def`;
  const lang = text.attrs;
  return (
    <fieldset
      className="choice"
      data-testid={testId}
      aria-describedby={definition === undefined ? undefined : descId}
    >
      <legend>
        {codebookText ? <span {...lang}>{legend}</span> : legend}
      </legend>
      {definition !== undefined && (
        <p id={descId} className="definition" {...lang}>
          {definition}
        </p>
      )}
      {source !== undefined && text.translation !== null && (
        <details className="source-text">
          <summary>{t('exam.case.englishSource')}</summary>
          <p lang="en" dir="ltr">
            <strong>{source.label}.</strong> {source.definition}
          </p>
        </details>
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
            <span {...lang}>{term.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function TermList({
  summary,
  terms,
  text,
}: {
  summary: string;
  terms: readonly Term[];
  text: CodebookText;
}) {
  const lang = text.attrs;
  return (
    <details className="term-list" data-testid="term-list">
      <summary>{summary}</summary>
      <dl>
        {terms.map((term) => (
          <div key={term.code}>
            <dt {...lang}>{term.label}</dt>
            <dd {...lang}>{term.definition}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** Which language the codebook is shown in, and whether its translation awaits review. */
/** The version is named above the form (exam.codebook), not in these sentences. */
function CodebookNote({ text }: { text: CodebookText }) {
  const { t } = useTranslation();
  if (text.translation === null)
    return (
      <p className="muted small" data-testid="codebook-language">
        {text.untranslated
          ? t('exam.case.codebookUntranslated')
          : t('exam.case.codebookLanguage')}
      </p>
    );
  return (
    <>
      <p className="muted small" data-testid="codebook-language">
        {t('exam.case.codebookTranslated')}
      </p>
      {text.translation.status === 'needs-review-by-native-forensic-practitioner' && (
        <p className="notice small" role="note" data-testid="codebook-review-note">
          {t('exam.case.codebookNeedsReview')}
        </p>
      )}
    </>
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
  const { t, i18n } = useTranslation();
  const text = codebookText(codebook, i18n.language);
  const lang = text.attrs;
  const values = codebook.values.map((v) => text.term('values', v));
  const setFinding = (code: string, next: { value: string | null; regions?: string[] }): void =>
    onChange({ ...form, findings: { ...form.findings, [code]: next } });
  return (
    <div className="codebook-form" data-testid="codebook-form" data-codebook-lang={text.lang}>
      <CodebookNote text={text} />
      <p className="instructions" {...lang}>
        {text.instructions}
      </p>
      <TermList summary={t('exam.case.scale')} terms={values} text={text} />
      <Choice
        name="sex"
        legend={t('exam.case.sex')}
        terms={codebook.sexes.map((x) => text.term('sexes', x))}
        value={form.sex}
        onChange={(v) => onChange({ ...form, sex: v })}
        testId="field-sex"
        text={text}
      />
      <Choice
        name="age_band"
        legend={t('exam.case.ageBand')}
        terms={codebook.ageBands.map((x) => text.term('ageBands', x))}
        value={form.age_band}
        onChange={(v) => onChange({ ...form, age_band: v })}
        testId="field-age_band"
        text={text}
      />
      <h3>{t('exam.case.findings')}</h3>
      {codebook.findings.map((f) => {
        const a = form.findings[f.code] ?? { value: null };
        const shown = text.term('findings', f);
        return (
          <div key={f.code} className="finding">
            <Choice
              name={`finding-${f.code}`}
              legend={shown.label}
              definition={shown.definition}
              source={f}
              text={text}
              terms={values}
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
                <legend>{t('exam.case.regions', { finding: shown.label })}</legend>
                <div className="options">
                  {codebook.regions.map((region) => text.term('regions', region)).map((r) => (
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
                      <span {...lang}>{r.label}</span>
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

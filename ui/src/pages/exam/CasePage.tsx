import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { CaseHeading } from './CaseHeading';
import { ApiError } from '../../api';
import { Link, useLocationSearch } from '../../router';
import { useSession } from '../../session/session';
import { blankFormOf, CodebookForm, missingOf } from './CodebookForm';
import { codebookText } from './codebook-text';
import {
  clearDraft,
  draftKey,
  DRAFT_RETENTION_DAYS,
  expireDrafts,
  loadDraft,
  saveDraft,
} from './drafts';
import { CasePhotos } from './Photos';
import { useGet } from './QueuePage';
import { prepareAndSign, SigningError } from './signing';
import type { CaseForm, FormState, Prepared, QueueView } from './types';
import './exam.css';

type Sending =
  | { state: 'idle' }
  | { state: 'working' }
  | { state: 'done'; commitment: string; revealed: boolean }
  | { state: 'failed'; message: string };

/** The message for a failed signing or submission, in the page's language where we know why. */
export function failureText(t: TFunction, e: unknown): string {
  if (e instanceof SigningError) {
    if (e.reason === 'no-key') return t('exam.sign.noKey');
    if (e.reason === 'wrong-password') return t('exam.sign.wrongPassword');
    return t('exam.sign.refused', { message: e.message });
  }
  if (e instanceof ApiError) {
    const errors = (e.details.errors as { path: string; message: string }[] | undefined) ?? [];
    return errors.length > 0
      ? `${e.message}: ${errors.map((x) => `${x.path} (${x.message})`).join('; ')}`
      : e.message;
  }
  return e instanceof Error ? e.message : String(e);
}

/**
 * A case of the examiner's queue, by code: its photographs (contact sheet and viewer) and the
 * codebook form beside them, a draft kept in this browser, and a submission signed here with the
 * examiner's own key. Nothing here names the subject, the unit, a date or a file.
 */
export function CasePage() {
  const search = new URLSearchParams(useLocationSearch());
  const plan = search.get('plan') ?? '';
  const code = search.get('code') ?? '';
  const valid = /^[0-9A-Za-z]{26}$/.test(plan) && /^k-[0-9a-f]{12}$/.test(code);
  const data = useGet<CaseForm>(valid ? `/api/plans/${plan}/cases/${code}/form` : null);
  const queue = useGet<QueueView>(valid ? '/api/examination/queue' : null);
  const mine =
    queue.state === 'ready'
      ? queue.value.plans.find((p) => p.plan.id === plan)?.cases.find((c) => c.case === code)?.mine
      : undefined;
  const { t } = useTranslation();
  return (
    <div className="page exam-page">
      <CaseHeading
        back="/examination"
        backLabel={t('exam.case.back')}
        code={code}
        valid={valid}
        load={data}
      />
      {data.state === 'ready' && queue.state !== 'loading' && (
        <Examination data={data.value} alreadySubmitted={mine === 'submitted'} />
      )}
    </div>
  );
}

function Examination({ data, alreadySubmitted }: { data: CaseForm; alreadySubmitted: boolean }) {
  const { t, i18n } = useTranslation();
  const { api, session } = useSession();
  const codebook = data.codebook.definition;
  const key = draftKey(session.account, data.plan.id, data.case);
  const initial = useMemo(() => loadDraft(key), [key]);
  const [form, setForm] = useState<FormState>(initial?.form ?? blankFormOf(codebook));
  const [opened, setOpened] = useState<number[]>(initial?.opened ?? []);
  const [savedAt, setSavedAt] = useState<string | null>(initial?.saved_at ?? null);
  const [selected, setSelected] = useState(1);
  const [reviewing, setReviewing] = useState(false);
  const [keyPassword, setKeyPassword] = useState('');
  const [sending, setSending] = useState<Sending>({ state: 'idle' });

  useEffect(() => expireDrafts(), []);
  // A case already answered keeps no draft (submitted from another browser, say).
  useEffect(() => {
    if (alreadySubmitted) clearDraft(key);
  }, [alreadySubmitted, key]);
  const onOpened = useCallback(
    (n: number) => setOpened((o) => (o.includes(n) ? o : [...o, n].sort((a, b) => a - b))),
    [],
  );
  // Autosave: every change of the form, and every photograph seen, while not yet submitted.
  useEffect(() => {
    if (sending.state === 'done') return;
    if (
      savedAt === null &&
      JSON.stringify(form) === JSON.stringify(blankFormOf(codebook)) &&
      opened.length === 0
    )
      return;
    setSavedAt(saveDraft(key, form, opened));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- saving on a change of form or opened only
  }, [form, opened]);

  const photos = data.photos;
  const unopened = photos.filter((p) => !opened.includes(p.n)).map((p) => p.n);
  const missing = missingOf(codebook, form, codebookText(codebook, i18n.language)).map((f) =>
    f === 'sex' ? t('exam.case.sex') : f === 'age_band' ? t('exam.case.ageBand') : f,
  );

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setSending({ state: 'working' });
    const base = `/api/plans/${data.plan.id}/cases/${data.case}`;
    try {
      const r = await prepareAndSign(
        api,
        keyPassword,
        () => api.post<Prepared>(`${base}/submission/prepare`, { form, language: i18n.language }),
        (token, signature) =>
          api.post<{ commitment: string; revealed: boolean }>(`${base}/submission`, {
            token,
            signature,
          }),
      );
      clearDraft(key);
      setKeyPassword('');
      setSending({ state: 'done', commitment: r.commitment, revealed: r.revealed });
    } catch (err) {
      setSending({ state: 'failed', message: failureText(t, err) });
    }
  };

  const time =
    savedAt === null
      ? null
      : new Date(savedAt).toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit' });
  return (
    <>
      <p className="muted">
        {t('exam.queue.plan', { name: data.plan.name })} ·{' '}
        {t('exam.codebook', { version: data.codebook.version })}
      </p>
      <div className="exam-columns">
        <CasePhotos
          plan={data.plan.id}
          code={data.case}
          photos={photos}
          selected={selected}
          onSelect={setSelected}
          opened={opened}
          onOpened={onOpened}
          imageContext="examination"
        />
        <section className="panel" aria-labelledby="form-heading">
          <h2 id="form-heading">{t('exam.case.form')}</h2>
          {alreadySubmitted && sending.state !== 'done' ? (
            <p className="ok" role="status" data-testid="already-submitted">
              {t('exam.case.alreadySubmitted')}
            </p>
          ) : sending.state === 'done' ? (
            <div className="done" data-testid="submitted" role="status">
              <p>{t('exam.case.submitted')}</p>
              <p className="mono small" dir="ltr">
                {sending.commitment}
              </p>
              <p>
                <Link href="/examination">{t('exam.case.back')}</Link>
              </p>
            </div>
          ) : (
            <>
              <p className="muted small" data-testid="draft-retention">
                {t('exam.case.retention', { days: DRAFT_RETENTION_DAYS })}
              </p>
              <p className="small" role="status" data-testid="draft-status">
                {time === null ? t('exam.case.noDraft') : t('exam.case.draftSaved', { time })}
              </p>
              <CodebookForm codebook={codebook} form={form} onChange={setForm} />
              {!reviewing ? (
                <button type="button" className="button primary" onClick={() => setReviewing(true)}>
                  {t('exam.case.review')}
                </button>
              ) : (
                <form
                  className="review stack"
                  onSubmit={(e) => void submit(e)}
                  data-testid="review"
                >
                  <h3>{t('exam.case.reviewHeading')}</h3>
                  {missing.length > 0 && (
                    <p className="alert" data-testid="missing">
                      {t('exam.case.missing', { fields: missing.join(', ') })}
                    </p>
                  )}
                  {unopened.length > 0 ? (
                    <div className="notice" role="alert" data-testid="unopened-warning">
                      <p>{t('exam.case.unopened')}</p>
                      <ul>
                        {unopened.map((n) => (
                          <li key={n}>
                            <button type="button" className="link" onClick={() => setSelected(n)}>
                              {t('exam.case.photo', { n })}
                            </button>
                          </li>
                        ))}
                      </ul>
                    </div>
                  ) : (
                    <p className="ok" data-testid="all-opened">
                      {t('exam.case.allOpened')}
                    </p>
                  )}
                  <label>
                    {t('exam.sign.password')}
                    <input
                      type="password"
                      autoComplete="off"
                      value={keyPassword}
                      onChange={(e) => setKeyPassword(e.target.value)}
                      required
                    />
                  </label>
                  <p className="muted small">{t('exam.sign.note')}</p>
                  <div className="row">
                    <button
                      type="submit"
                      className="button primary"
                      disabled={sending.state === 'working'}
                    >
                      {sending.state === 'working' ? t('exam.sign.working') : t('exam.case.sign')}
                    </button>
                    <button
                      type="button"
                      className="button quiet"
                      onClick={() => setReviewing(false)}
                    >
                      {t('exam.cancel')}
                    </button>
                  </div>
                  {sending.state === 'failed' && (
                    <p className="alert" role="alert" data-testid="submit-failed">
                      {sending.message}
                    </p>
                  )}
                </form>
              )}
            </>
          )}
        </section>
      </div>
    </>
  );
}

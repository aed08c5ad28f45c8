import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type LinkSuggestion, type LinksWritten } from '../../api';
import { formatCount } from '../../i18n';
import { Link } from '../../router';
import { useSession } from '../../session/session';
import { unitName } from './figures';
import { isolate } from './SubjectsPage';
import { useLoad } from './useLoad';
import './catalogue.css';

/** A selected photograph: the subject it would join and the item, as "subject item". */
const keyOf = (subject: string, item: string): string => `${subject} ${item}`;

type Outcome =
  | { kind: 'done'; written: LinksWritten; numbers: Map<string, string> }
  | { kind: 'failed'; message: string }
  | { kind: 'invalid'; message: string };

/**
 * The link suggestions (near-duplicate clusters, examiners' decisions), each a group of
 * photographs with a checkbox per photograph and one for the whole group. The selected
 * photographs are linked in one request, with one reason, as one ledger batch (POST /api/links).
 */
export function LinkingPage() {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const [load, reload] = useLoad('suggestions', () =>
    api.get<{ count: number; suggestions: LinkSuggestion[] }>('/api/link-suggestions'),
  );
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const lng = i18n.language;
  const suggestions = load.state === 'ready' ? load.value.suggestions : [];
  const links = suggestions.filter((s) => s.kind === 'link');
  const reviews = suggestions.filter((s) => s.kind === 'review-merge');

  const toggle = (keys: string[], on: boolean): void => {
    const next = new Set(selected);
    for (const k of keys) if (on) next.add(k);
    else next.delete(k);
    setSelected(next);
  };
  const all = links.flatMap((s) => s.items.map((i) => keyOf(s.subjects[0] ?? '', i)));
  const chosen = [...selected];
  const subjectsChosen = new Set(chosen.map((k) => k.split(' ')[0]));

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (chosen.length === 0) return setOutcome({ kind: 'invalid', message: t('linking.needSelection') });
    if (reason.trim() === '') return setOutcome({ kind: 'invalid', message: t('linking.needReason') });
    const bySubject = new Map<string, string[]>();
    for (const k of chosen) {
      const [subject = '', item = ''] = k.split(' ');
      bySubject.set(subject, [...(bySubject.get(subject) ?? []), item]);
    }
    const numbers = new Map(
      links.map((s) => [s.subjects[0] ?? '', s.subject_labels[0]?.number ?? s.subjects[0] ?? '']),
    );
    setBusy(true);
    try {
      const written = await api.post<LinksWritten>('/api/links', {
        links: [...bySubject].map(([subject, items]) => ({ subject, items })),
        reason,
      });
      setOutcome({ kind: 'done', written, numbers });
      setSelected(new Set());
      setReason('');
      reload();
    } catch (err) {
      setOutcome(
        err instanceof ApiError && err.code === 'HTTP_FORBIDDEN'
          ? { kind: 'invalid', message: t('linking.readOnly') }
          : {
              kind: 'failed',
              message: err instanceof ApiError ? `${err.message} (${err.code})` : String(err),
            },
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page catalogue-page">
      <h1>{t('linking.heading')}</h1>
      <p className="muted">{t('linking.intro')}</p>
      {outcome?.kind === 'done' && (
        <div className="notice" role="status" data-testid="link-done">
          <p>
            {t('linking.done', {
              photos: formatCount(
                outcome.written.links.reduce((n, l) => n + l.items.length, 0),
                lng,
              ),
              seqs: outcome.written.links.map((l) => formatCount(l.seq, lng)).join(lng === 'ar' ? '، ' : ', '),
            })}
          </p>
          <ul>
            {outcome.written.links.map((l) => (
              <li key={l.subject}>
                <Link href={`/subjects?id=${l.subject}`}>
                  {t('linking.openSubject', { number: isolate(outcome.numbers.get(l.subject) ?? l.subject) })}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
      {load.state === 'loading' && (
        <p className="muted" role="status">
          {t('linking.loading')}
        </p>
      )}
      {load.state === 'failed' && (
        <p className="alert" role="alert">
          {t('linking.error', { message: load.message })}
        </p>
      )}
      {load.state === 'ready' && suggestions.length === 0 && (
        <p className="empty" data-testid="no-suggestions">
          {t('linking.none')}
        </p>
      )}
      {links.length > 0 && (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <div className="link-toolbar">
            <button type="button" className="button quiet" onClick={() => toggle(all, true)}>
              {t('linking.selectAll')}
            </button>
            <button type="button" className="button quiet" onClick={() => setSelected(new Set())}>
              {t('linking.clear')}
            </button>
          </div>
          <ul className="suggestions" aria-label={t('linking.listLabel')}>
            {links.map((s) => (
              <SuggestionCard key={s.id} s={s} selected={selected} toggle={toggle} />
            ))}
          </ul>
          <section className="panel accept-panel" aria-labelledby="accept-heading">
            <h2 id="accept-heading" data-testid="selection-count">
              {t('linking.selected', {
                photos: formatCount(chosen.length, lng),
                subjects: formatCount(subjectsChosen.size, lng),
              })}
            </h2>
            <div className="field">
              <label htmlFor="link-reason">{t('linking.reason')}</label>
              <textarea
                id="link-reason"
                rows={3}
                value={reason}
                maxLength={2000}
                aria-describedby="link-reason-hint"
                onChange={(e) => setReason(e.target.value)}
              />
              <p id="link-reason-hint" className="muted hint">
                {t('linking.reasonHint')}
              </p>
            </div>
            {(outcome?.kind === 'failed' || outcome?.kind === 'invalid') && (
              <p className="alert" role="alert" data-testid="link-failed">
                {outcome.kind === 'failed' ? t('linking.failed', { message: outcome.message }) : outcome.message}
              </p>
            )}
            <button type="submit" className="button primary auto" disabled={busy}>
              {busy ? t('linking.accepting') : t('linking.accept')}
            </button>
          </section>
        </form>
      )}
      {reviews.length > 0 && (
        <ul className="suggestions">
          {reviews.map((s) => (
            <li key={s.id} className="panel suggestion">
              <h2>
                {t('linking.reviewHeading', {
                  subjects: s.subject_labels
                    .map((l) => isolate(l.number ?? l.subject))
                    .join(lng === 'ar' ? '، ' : ', '),
                })}
              </h2>
              <p className="muted">{t('linking.review')}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function SuggestionCard({
  s,
  selected,
  toggle,
}: {
  s: LinkSuggestion;
  selected: ReadonlySet<string>;
  toggle(keys: string[], on: boolean): void;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const subject = s.subjects[0] ?? '';
  const label = s.subject_labels[0];
  const keys = s.items.map((i) => keyOf(subject, i));
  const count = keys.filter((k) => selected.has(k)).length;
  const group = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (group.current !== null) group.current.indeterminate = count > 0 && count < keys.length;
  }, [count, keys.length]);
  const headingId = `suggestion-${s.id}`;
  const basis =
    s.basis.type === 'cluster'
      ? t('linking.basisCluster', { distance: formatCount(s.basis.max_distance, lng) })
      : t('linking.basisDecision', { decision: s.basis.decision, seq: formatCount(s.basis.seq, lng) });
  return (
    <li className="panel suggestion" data-testid="suggestion" data-suggestion={s.id}>
      <fieldset aria-labelledby={headingId}>
        <h2 id={headingId}>
          {t('linking.linkTo', { number: isolate(label?.number ?? subject) })}
          {label?.unit != null && (
            <span className="muted suggestion-unit">
              {' · '}
              <bdi>{unitName(label.unit, lng)}</bdi>
            </span>
          )}
        </h2>
        <p className="muted">{basis}</p>
        <label className="check">
          <input
            ref={group}
            type="checkbox"
            data-testid="suggestion-check"
            checked={count === keys.length}
            onChange={(e) => toggle(keys, e.target.checked)}
          />
          {t('linking.selectSuggestion', { n: formatCount(keys.length, lng) })}
        </label>
        <ul className="thumbs">
          {s.items.map((item, i) => {
            const file = s.item_labels[i]?.path ?? item;
            const k = keyOf(subject, item);
            return (
              <li key={item}>
                <label className="thumb-check">
                  <input
                    type="checkbox"
                    data-testid="photo-check"
                    checked={selected.has(k)}
                    onChange={(e) => toggle([k], e.target.checked)}
                  />
                  <img
                    className="blurred-preview"
                    src={`/api/items/${item}/preview?size=256`}
                    alt={t('linking.photoAlt', { file: isolate(file) })}
                    loading="lazy"
                    decoding="async"
                  />
                  <span>{t('linking.photo', { file: isolate(file) })}</span>
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
    </li>
  );
}

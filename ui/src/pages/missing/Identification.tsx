import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api';
import { formatCount } from '../../i18n';
import { useSession } from '../../session/session';
import { useLoad, type Load } from '../catalogue/useLoad';
import type {
  EvidenceLevel,
  LinkEvent,
  ReferenceKind,
  SubjectLink,
  SubjectLinksView,
  ViewingOutcome,
} from './types';

// Issue 15, "Review" and "Consented viewing", for the family liaison: accept or reject a candidate
// with a reason, the reviewed subjects with their evidence level and history, a family viewing
// (blurred thumbnails only: this page never asks for an unblurred image), and the level raised.

const subjectsPath = (report: string, subject: string) =>
  `/api/missing/${encodeURIComponent(report)}/subjects/${encodeURIComponent(subject)}`;

const REFUSALS = [
  'MISSING_VIEWING_NO_CONSENT',
  'MISSING_VIEWING_WRONG_LIAISON',
  'MISSING_SUBJECT_LINK_NOT_ACCEPTED',
  'MISSING_LEVEL_NEEDS_RECOGNITION',
  'MISSING_LEVEL_NEEDS_CORROBORATION',
  'MISSING_REPORT_FORBIDDEN',
] as const;

/** The server's refusal as a sentence the liaison can act on (the code kept on the element). */
export function refusal(t: TFunction, err: unknown): { code: string; text: string } {
  const code = err instanceof ApiError ? err.code : 'UNKNOWN';
  const known = (REFUSALS as readonly string[]).includes(code);
  return {
    code,
    text: known
      ? t(`identify.errors.${code as (typeof REFUSALS)[number]}`)
      : t('identify.errors.other', { message: err instanceof Error ? err.message : String(err) }),
  };
}

/** A submit in flight, done (the ledger entry) or refused. */
type Outcome =
  | { state: 'idle' }
  | { state: 'busy' }
  | { state: 'done'; seq: number }
  | { state: 'failed'; code: string; text: string };

function OutcomeLine({
  outcome,
  done,
  busy,
}: {
  outcome: Outcome;
  done: (seq: number) => string;
  busy: string;
}) {
  if (outcome.state === 'busy')
    return (
      <p className="muted" role="status">
        {busy}
      </p>
    );
  if (outcome.state === 'done')
    return (
      <p role="status" data-testid="outcome-done" data-seq={outcome.seq}>
        {done(outcome.seq)}
      </p>
    );
  if (outcome.state === 'failed')
    return (
      <p className="alert" role="alert" data-testid="outcome-refused" data-code={outcome.code}>
        {outcome.text}
      </p>
    );
  return null;
}

/** "Accept as candidate" / "Reject" beside a candidate, with the reason the server requires. */
export function ReviewForm({
  report,
  subject,
  current,
  onDone,
}: {
  report: string;
  subject: string;
  current: SubjectLink | undefined;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const { api } = useSession();
  const ids = useId();
  const [reason, setReason] = useState('');
  const [decision, setDecision] = useState<'accept' | 'reject'>('accept');
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setOutcome({ state: 'busy' });
    try {
      const r = await api.post<{ seq: number }>(`${subjectsPath(report, subject)}/review`, {
        decision,
        reason: reason.trim(),
      });
      setOutcome({ state: 'done', seq: r.seq });
      setReason('');
      onDone();
    } catch (err) {
      setOutcome({ state: 'failed', ...refusal(t, err) });
    }
  };
  return (
    <form className="identify-form" data-testid="review-form" onSubmit={(e) => void submit(e)}>
      <fieldset>
        <legend>{t('identify.review.legend', { subject })}</legend>
        {current !== undefined && (
          <p data-testid="review-current" data-decision={current.status}>
            {t('identify.review.current', { decision: t(`identify.decisions.${current.status}`) })}
          </p>
        )}
        <div className="field">
          <label htmlFor={`${ids}-reason`}>{t('identify.review.reason')}</label>
          <textarea
            id={`${ids}-reason`}
            dir="auto"
            required
            maxLength={2000}
            rows={2}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
        <div className="actions">
          <button
            type="submit"
            className="button primary auto"
            data-decision="accept"
            onClick={() => setDecision('accept')}
            disabled={outcome.state === 'busy'}
          >
            {t('identify.review.accept')}
          </button>
          <button
            type="submit"
            className="button quiet"
            data-decision="reject"
            onClick={() => setDecision('reject')}
            disabled={outcome.state === 'busy'}
          >
            {t('identify.review.reject')}
          </button>
        </div>
        <OutcomeLine
          outcome={outcome}
          busy={t('identify.review.busy')}
          done={(seq) => t('identify.review.done', { seq })}
        />
      </fieldset>
    </form>
  );
}

/** The report's reviewed subject links: decision, evidence level, history; the forms for accepted ones. */
export function ReviewedSubjects({
  report,
  links,
  reload,
}: {
  report: string;
  links: Load<SubjectLinksView>;
  reload(): void;
}) {
  const { t } = useTranslation();
  return (
    <section className="panel" aria-labelledby="reviewed-subjects" data-testid="reviewed-subjects">
      <h2 id="reviewed-subjects">{t('identify.reviewed.heading')}</h2>
      <p className="muted">{t('identify.reviewed.intro')}</p>
      {links.state === 'loading' && (
        <p className="muted" role="status">
          {t('identify.reviewed.loading')}
        </p>
      )}
      {links.state === 'failed' && (
        <p className="alert" role="alert">
          {refusal(t, new ApiError(0, links.code, links.message)).text}
        </p>
      )}
      {links.state === 'ready' && links.value.links.length === 0 && (
        <p className="muted">{t('identify.reviewed.none')}</p>
      )}
      {links.state === 'ready' && links.value.links.length > 0 && (
        <ul className="candidates">
          {links.value.links.map((l) => (
            <LinkItem key={l.subject} report={report} link={l} reload={reload} />
          ))}
        </ul>
      )}
    </section>
  );
}

function LinkItem({ report, link, reload }: { report: string; link: SubjectLink; reload(): void }) {
  const { t } = useTranslation();
  const headingId = `link-${link.subject}`;
  return (
    <li
      className="candidate"
      data-testid="reviewed-link"
      data-subject={link.subject}
      aria-labelledby={headingId}
    >
      <h3 id={headingId}>{t('identify.reviewed.subject', { subject: link.subject })}</h3>
      <dl className="facts">
        <dt>{t('identify.reviewed.decision')}</dt>
        <dd data-testid="link-decision" data-decision={link.status}>
          {t(`identify.decisions.${link.status}`)}
        </dd>
        <dt>{t('identify.reviewed.level')}</dt>
        <dd data-testid="link-level" data-level={link.level ?? 'none'}>
          <span className="outcome">{t(`identify.levels.${link.level ?? 'none'}`)}</span>
        </dd>
      </dl>
      <h4>{t('identify.reviewed.history')}</h4>
      <ol className="marks" data-testid="link-history">
        {link.events.map((e) => (
          <HistoryEvent key={e.seq} e={e} />
        ))}
      </ol>
      {link.status === 'accept' && (
        <>
          <ViewingForm report={report} subject={link.subject} onDone={reload} />
          <LevelForm report={report} link={link} onDone={reload} />
        </>
      )}
    </li>
  );
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function HistoryEvent({ e }: { e: LinkEvent }) {
  const { t, i18n } = useTranslation();
  const n = (x: number) => formatCount(x, i18n.language);
  const parts: string[] = [];
  if (e.action.endsWith('subject-review'))
    parts.push(
      e.value === 'accept' || e.value === 'reject'
        ? t(`identify.decisions.${e.value}`)
        : String(e.value),
    );
  else if (e.action.endsWith('subject-level'))
    parts.push(
      e.value === 'recognised' || e.value === 'confirmed'
        ? t(`identify.levels.${e.value}`)
        : String(e.value),
    );
  else if (e.action.endsWith('viewing')) {
    const photos = Array.isArray(e.facts.photographs)
      ? (e.facts.photographs as { outcome?: string }[])
      : [];
    parts.push(
      t('identify.reviewed.viewingEvent', {
        n: n(photos.length),
        recognised: n(photos.filter((p) => p.outcome === 'recognised').length),
      }),
    );
    const who = Array.isArray(e.note.attendees)
      ? (e.note.attendees as { name?: string; relation?: string | null }[])
      : [];
    if (who.length > 0)
      parts.push(
        t('identify.reviewed.attendees', {
          names: who
            .map(
              (a) =>
                `\u2068${a.name ?? ''}\u2069${a.relation ? ` (\u2068${a.relation}\u2069)` : ''}`,
            )
            .join(', '),
        }),
      );
  } else parts.push(e.action);
  const reason = str(e.note.reason);
  if (reason !== null)
    parts.push(t('identify.reviewed.reason', { reason: `\u2068${reason}\u2069` }));
  const refs = Array.isArray(e.note.references)
    ? (e.note.references as { kind?: string; reference?: string }[])
    : [];
  if (refs.length > 0)
    parts.push(
      t('identify.reviewed.references', {
        refs: refs.map((r) => `${r.kind ?? ''}: \u2068${r.reference ?? ''}\u2069`).join('; '),
      }),
    );
  return (
    <li data-testid="link-event" data-action={e.action} data-seq={e.seq}>
      <bdi dir="auto">
        {t('identify.reviewed.event', {
          seq: e.seq,
          date: e.time.slice(0, 10),
          actor: `\u2068${e.actor}\u2069`,
          what: parts.join('; '),
        })}
      </bdi>
    </li>
  );
}

interface ShownRow {
  item: string;
  shown: boolean;
  blurred_first: boolean;
  outcome: ViewingOutcome;
}

/** A family viewing: attendees, the photographs shown in order (blurred thumbnails), each outcome. */
function ViewingForm({
  report,
  subject,
  onDone,
}: {
  report: string;
  subject: string;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const { api } = useSession();
  const ids = useId();
  const [attendees, setAttendees] = useState([{ name: '', relation: '' }]);
  const [rows, setRows] = useState<ShownRow[] | null>(null);
  const [notes, setNotes] = useState('');
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const [photos] = useLoad(`photos ${report} ${subject}`, async () => {
    const r = await api.get<{ items: string[] }>(`${subjectsPath(report, subject)}/photographs`);
    setRows(
      r.items.map((item) => ({ item, shown: false, blurred_first: true, outcome: 'unsure' })),
    );
    return r.items;
  });
  const setRow = (i: number, patch: Partial<ShownRow>) =>
    setRows((rs) => (rs ?? []).map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const move = (i: number, by: -1 | 1) =>
    setRows((rs) => {
      const next = [...(rs ?? [])];
      const [r] = next.splice(i, 1);
      next.splice(i + by, 0, r!);
      return next;
    });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const shown = (rows ?? []).filter((r) => r.shown);
    if (shown.length === 0) {
      setOutcome({ state: 'failed', code: 'NONE_PICKED', text: t('identify.viewing.nonePicked') });
      return;
    }
    setOutcome({ state: 'busy' });
    try {
      const r = await api.post<{ seq: number }>(`${subjectsPath(report, subject)}/viewings`, {
        attendees: attendees.map((a) => ({
          name: a.name.trim(),
          relation: a.relation.trim() === '' ? null : a.relation.trim(),
        })),
        photographs: shown.map(({ item, blurred_first, outcome: o }) => ({
          item,
          blurred_first,
          outcome: o,
        })),
        ...(notes.trim() === '' ? {} : { notes: notes.trim() }),
      });
      setOutcome({ state: 'done', seq: r.seq });
      onDone();
    } catch (err) {
      setOutcome({ state: 'failed', ...refusal(t, err) });
    }
  };
  return (
    <form
      className="identify-form"
      data-testid="viewing-form"
      aria-labelledby={`${ids}-h`}
      onSubmit={(e) => void submit(e)}
    >
      <h4 id={`${ids}-h`}>{t('identify.viewing.heading')}</h4>
      <p className="notice">{t('identify.viewing.intro')}</p>
      <fieldset>
        <legend>{t('identify.viewing.attendees')}</legend>
        {attendees.map((a, i) => (
          <div className="row-fields" key={i} data-testid="attendee">
            <div className="field">
              <label htmlFor={`${ids}-a${i}-name`}>
                {t('identify.viewing.attendee', { n: i + 1 })} · {t('identify.viewing.name')}
              </label>
              <input
                id={`${ids}-a${i}-name`}
                dir="auto"
                required
                maxLength={200}
                value={a.name}
                onChange={(e) =>
                  setAttendees((as) =>
                    as.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)),
                  )
                }
              />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-a${i}-rel`}>
                {t('identify.viewing.attendee', { n: i + 1 })} · {t('identify.viewing.relation')}
              </label>
              <input
                id={`${ids}-a${i}-rel`}
                dir="auto"
                maxLength={100}
                value={a.relation}
                onChange={(e) =>
                  setAttendees((as) =>
                    as.map((x, j) => (j === i ? { ...x, relation: e.target.value } : x)),
                  )
                }
              />
            </div>
            {attendees.length > 1 && (
              <button
                type="button"
                className="button quiet"
                onClick={() => setAttendees((as) => as.filter((_, j) => j !== i))}
              >
                {t('identify.viewing.removeAttendee', { n: i + 1 })}
              </button>
            )}
          </div>
        ))}
        <button
          type="button"
          className="button quiet"
          onClick={() => setAttendees((as) => [...as, { name: '', relation: '' }])}
        >
          {t('identify.viewing.addAttendee')}
        </button>
      </fieldset>
      <fieldset>
        <legend>{t('identify.viewing.photographs')}</legend>
        {photos.state === 'loading' && (
          <p className="muted" role="status">
            {t('identify.viewing.photographsLoading')}
          </p>
        )}
        {photos.state === 'failed' && (
          <p className="alert" role="alert" data-code={photos.code}>
            {refusal(t, new ApiError(0, photos.code, photos.message)).text}
          </p>
        )}
        {rows !== null && rows.length === 0 && (
          <p className="muted">{t('identify.viewing.noPhotographs')}</p>
        )}
        {rows !== null && rows.length > 0 && (
          <ol className="viewing-photos">
            {rows.map((r, i) => (
              <li key={r.item} data-testid="viewing-photo" data-item={r.item}>
                <img
                  className="viewing-thumb blurred-preview"
                  src={`${subjectsPath(report, subject)}/photographs/${encodeURIComponent(r.item)}/preview`}
                  alt={t('identify.viewing.thumbnail', { item: r.item })}
                  width={128}
                  height={128}
                />
                <fieldset>
                  <legend>{t('identify.viewing.photograph', { n: i + 1, item: r.item })}</legend>
                  <label className="check">
                    <input
                      type="checkbox"
                      data-testid="photo-shown"
                      checked={r.shown}
                      onChange={(e) => setRow(i, { shown: e.target.checked })}
                    />{' '}
                    {t('identify.viewing.show')}
                  </label>
                  <label className="check">
                    <input
                      type="checkbox"
                      data-testid="photo-blurred-first"
                      checked={r.blurred_first}
                      onChange={(e) => setRow(i, { blurred_first: e.target.checked })}
                    />{' '}
                    {t('identify.viewing.blurredFirst')}
                  </label>
                  <div className="field">
                    <label htmlFor={`${ids}-p${i}-o`}>{t('identify.viewing.outcome')}</label>
                    <select
                      id={`${ids}-p${i}-o`}
                      data-testid="photo-outcome"
                      value={r.outcome}
                      onChange={(e) => setRow(i, { outcome: e.target.value as ViewingOutcome })}
                    >
                      {(['recognised', 'not-recognised', 'unsure'] as const).map((o) => (
                        <option key={o} value={o}>
                          {t(`identify.viewing.outcomes.${o}`)}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div className="actions">
                    <button
                      type="button"
                      className="button quiet"
                      disabled={i === 0}
                      onClick={() => move(i, -1)}
                    >
                      {t('identify.viewing.up', { n: i + 1 })}
                    </button>
                    <button
                      type="button"
                      className="button quiet"
                      disabled={i === rows.length - 1}
                      onClick={() => move(i, 1)}
                    >
                      {t('identify.viewing.down', { n: i + 1 })}
                    </button>
                  </div>
                </fieldset>
              </li>
            ))}
          </ol>
        )}
      </fieldset>
      <div className="field">
        <label htmlFor={`${ids}-notes`}>{t('identify.viewing.notes')}</label>
        <textarea
          id={`${ids}-notes`}
          dir="auto"
          maxLength={2000}
          rows={2}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
        />
      </div>
      <button type="submit" className="button primary auto" disabled={outcome.state === 'busy'}>
        {t('identify.viewing.submit')}
      </button>
      <OutcomeLine
        outcome={outcome}
        busy={t('identify.viewing.busy')}
        done={(seq) => t('identify.viewing.done', { seq })}
      />
    </form>
  );
}

/** Raise the level: recognised (naming the viewing) or confirmed (with references), a reason always. */
function LevelForm({
  report,
  link,
  onDone,
}: {
  report: string;
  link: SubjectLink;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const { api } = useSession();
  const ids = useId();
  const [level, setLevel] = useState<Exclude<EvidenceLevel, 'candidate'>>(
    link.level === 'recognised' ? 'confirmed' : 'recognised',
  );
  const [viewing, setViewing] = useState<string>('');
  const [refs, setRefs] = useState<{ kind: ReferenceKind; reference: string }[]>([
    { kind: 'number-record', reference: '' },
  ]);
  const [reason, setReason] = useState('');
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const chosen = viewing !== '' ? viewing : String(link.recognised_in.at(-1) ?? '');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setOutcome({ state: 'busy' });
    try {
      const body =
        level === 'recognised'
          ? { level, viewing: chosen === '' ? -1 : Number(chosen), reason: reason.trim() }
          : {
              level,
              references: refs.map((r) => ({ kind: r.kind, reference: r.reference.trim() })),
              reason: reason.trim(),
            };
      const r = await api.post<{ seq: number }>(
        `${subjectsPath(report, link.subject)}/level`,
        body,
      );
      setOutcome({ state: 'done', seq: r.seq });
      setReason('');
      onDone();
    } catch (err) {
      setOutcome({ state: 'failed', ...refusal(t, err) });
    }
  };
  return (
    <form
      className="identify-form"
      data-testid="level-form"
      aria-labelledby={`${ids}-h`}
      onSubmit={(e) => void submit(e)}
    >
      <h4 id={`${ids}-h`}>{t('identify.level.heading')}</h4>
      <div className="field">
        <label htmlFor={`${ids}-level`}>{t('identify.level.level')}</label>
        <select
          id={`${ids}-level`}
          data-testid="level-choice"
          value={level}
          onChange={(e) => setLevel(e.target.value as 'recognised' | 'confirmed')}
        >
          <option value="recognised">{t('identify.levels.recognised')}</option>
          <option value="confirmed">{t('identify.levels.confirmed')}</option>
        </select>
      </div>
      {level === 'recognised' &&
        (link.recognised_in.length === 0 ? (
          <p className="muted">{t('identify.level.noViewing')}</p>
        ) : (
          <div className="field">
            <label htmlFor={`${ids}-viewing`}>{t('identify.level.viewing')}</label>
            <select
              id={`${ids}-viewing`}
              data-testid="level-viewing"
              value={chosen}
              onChange={(e) => setViewing(e.target.value)}
            >
              {link.recognised_in.map((seq) => (
                <option key={seq} value={String(seq)}>
                  {t('identify.level.viewingOption', { seq })}
                </option>
              ))}
            </select>
          </div>
        ))}
      {level === 'confirmed' && (
        <fieldset>
          <legend>{t('identify.level.references')}</legend>
          {refs.map((r, i) => (
            <div className="row-fields" key={i} data-testid="reference">
              <div className="field">
                <label htmlFor={`${ids}-r${i}-k`}>{t('identify.level.kind', { n: i + 1 })}</label>
                <select
                  id={`${ids}-r${i}-k`}
                  value={r.kind}
                  onChange={(e) =>
                    setRefs((rs) =>
                      rs.map((x, j) =>
                        j === i ? { ...x, kind: e.target.value as ReferenceKind } : x,
                      ),
                    )
                  }
                >
                  {(['number-record', 'dna', 'document'] as const).map((k) => (
                    <option key={k} value={k}>
                      {t(`identify.level.kinds.${k}`)}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor={`${ids}-r${i}-t`}>
                  {t('identify.level.reference', { n: i + 1 })}
                </label>
                <input
                  id={`${ids}-r${i}-t`}
                  dir="auto"
                  required
                  maxLength={500}
                  value={r.reference}
                  onChange={(e) =>
                    setRefs((rs) =>
                      rs.map((x, j) => (j === i ? { ...x, reference: e.target.value } : x)),
                    )
                  }
                />
              </div>
              {refs.length > 1 && (
                <button
                  type="button"
                  className="button quiet"
                  onClick={() => setRefs((rs) => rs.filter((_, j) => j !== i))}
                >
                  {t('identify.level.removeReference', { n: i + 1 })}
                </button>
              )}
            </div>
          ))}
          <button
            type="button"
            className="button quiet"
            disabled={refs.length >= 20}
            onClick={() => setRefs((rs) => [...rs, { kind: 'document', reference: '' }])}
          >
            {t('identify.level.addReference')}
          </button>
        </fieldset>
      )}
      <div className="field">
        <label htmlFor={`${ids}-reason`}>{t('identify.level.reason')}</label>
        <textarea
          id={`${ids}-reason`}
          dir="auto"
          required
          maxLength={2000}
          rows={2}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
      <button type="submit" className="button primary auto" disabled={outcome.state === 'busy'}>
        {t('identify.level.submit')}
      </button>
      <OutcomeLine
        outcome={outcome}
        busy={t('identify.level.busy')}
        done={(seq) => t('identify.level.done', { seq })}
      />
    </form>
  );
}

import { Fragment, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { useSession } from '../../session/session';
import { isReportId, type ReportContact, type ReportView } from './types';

/**
 * The source custodian's read of a reporting contact: a reason first, then POST
 * /api/missing/:id/contact, which records the read (account, report, reason) in the ledger before
 * it answers with the contact. With no `reportId`, the form asks for the report too.
 */
export function ContactReadForm({
  reportId,
  initialId,
  onRead,
}: {
  /** The report, fixed (the report page); without it the form asks for one. */
  reportId?: string;
  /** The report id to start the asking form with (from the page's ?id=). */
  initialId?: string;
  onRead(view: ReportView): void;
}) {
  const { t } = useTranslation();
  const { api } = useSession();
  const ids = useId();
  const [id, setId] = useState(reportId ?? initialId ?? '');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const target = (reportId ?? id).trim();
    if (!isReportId(target)) {
      setError(t('missingContact.invalidId'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onRead(
        await api.post<ReportView>(`/api/missing/${encodeURIComponent(target)}/contact`, {
          reason: reason.trim(),
        }),
      );
      setReason('');
    } catch (err) {
      const message =
        err instanceof ApiError && err.code === 'MISSING_REPORT_FORBIDDEN'
          ? t('missingReport.forbidden')
          : err instanceof Error
            ? err.message
            : String(err);
      setError(t('missingReport.contact.error', { message }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="contact-form" onSubmit={(e) => void submit(e)} data-testid="contact-form">
      <p className="notice">{t('missingReport.contact.intro')}</p>
      {reportId === undefined && (
        <div className="field">
          <label htmlFor={`${ids}-id`}>{t('missingContact.report')}</label>
          <input
            id={`${ids}-id`}
            name="report"
            dir="ltr"
            required
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${ids}-id-hint`}
            value={id}
            onChange={(e) => setId(e.target.value)}
          />
          <p className="muted" id={`${ids}-id-hint`}>
            {t('missingContact.idHint')}
          </p>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${ids}-reason`}>{t('missingReport.contact.reason')}</label>
        <textarea
          id={`${ids}-reason`}
          name="reason"
          dir="auto"
          required
          maxLength={2000}
          rows={3}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
      {error !== null && (
        <p className="alert" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button quiet" disabled={busy || reason.trim() === ''}>
        {busy ? t('missingReport.contact.reading') : t('missingReport.contact.submit')}
      </button>
    </form>
  );
}

/** A contact that was read, with the ledger entry that recorded the read. */
export function ContactShown({ contact, seq }: { contact: ReportContact; seq: number | null }) {
  const { t } = useTranslation();
  const shown = useRef<HTMLDivElement>(null);
  // The contact appears below the form: take the reader there (keyboard and screen reader).
  useEffect(() => shown.current?.focus(), []);
  const rows: [string, string | null, 'auto' | 'ltr'][] = [
    [t('missingReport.contact.name'), contact.name, 'auto'],
    [t('missingReport.contact.relation'), contact.relation, 'auto'],
    [t('missingReport.contact.phone'), contact.phone, 'ltr'],
    [t('missingReport.contact.email'), contact.email, 'ltr'],
    [t('missingReport.contact.address'), contact.address, 'auto'],
  ];
  return (
    <div data-testid="contact-shown" ref={shown} tabIndex={-1}>
      <dl className="facts">
        {rows
          .filter(([, v]) => v !== null)
          .map(([label, v, dir]) => (
            <Fragment key={label}>
              <dt>{label}</dt>
              <dd>
                <bdi dir={dir}>{v}</bdi>
              </dd>
            </Fragment>
          ))}
      </dl>
      {seq !== null && (
        <p className="notice" data-testid="contact-read-seq" data-seq={seq}>
          {t('missingReport.contact.recordedIn', { seq: String(seq) })}
        </p>
      )}
    </div>
  );
}

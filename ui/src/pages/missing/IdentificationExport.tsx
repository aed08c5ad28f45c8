import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { useSession } from '../../session/session';
import { refusal } from './Identification';

interface ExportDone {
  id: string;
  seq: number;
  tree_size: number;
  bytes: number;
}

interface ExportJob {
  id: string;
  state: 'running' | 'done' | 'failed';
  error: string | null;
  error_code: string | null;
  result: Omit<ExportDone, 'id'> | null;
}

const POLL_MS = 250;

/**
 * The report's identification file for the authorities: POST /api/missing/:id/export starts a job
 * that writes it as a bag (contacts redacted) and records it in the ledger; the page polls the job
 * (GET …/export/jobs/:job) until it ends; the link downloads the bag (named by the job's id), each
 * download a ledger entry naming the account. `custody verify-export` checks the bag.
 */
export function IdentificationExport({ report }: { report: string }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<ExportDone | null>(null);
  const [error, setError] = useState<{ code: string; text: string } | null>(null);
  const make = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      const base = `/api/missing/${encodeURIComponent(report)}/export`;
      let job = await api.post<ExportJob>(base, {});
      while (job.state === 'running') {
        await new Promise((resolve) => window.setTimeout(resolve, POLL_MS));
        job = await api.get<ExportJob>(`${base}/jobs/${encodeURIComponent(job.id)}`);
      }
      if (job.state !== 'done' || job.result === null)
        throw new ApiError(200, job.error_code ?? 'UNKNOWN', job.error ?? job.state);
      setDone({ ...job.result, id: job.id });
    } catch (err) {
      setError(refusal(t, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel" aria-labelledby="report-export" data-testid="identification-export">
      <h2 id="report-export">{t('missingReport.export.heading')}</h2>
      <p className="muted">{t('missingReport.export.explain')}</p>
      <button type="button" onClick={() => void make()} disabled={busy}>
        {busy ? t('missingReport.export.making') : t('missingReport.export.make')}
      </button>
      {error !== null && (
        <p className="alert" role="alert" data-code={error.code}>
          {error.text}
        </p>
      )}
      {done !== null && (
        <p role="status" data-testid="export-done" data-seq={done.seq}>
          {t('missingReport.export.done', { seq: done.seq, size: done.tree_size })}{' '}
          <a
            href={`/api/missing/${encodeURIComponent(report)}/export/${encodeURIComponent(done.id)}`}
            download
            data-testid="export-download"
          >
            {t('missingReport.export.download')}
          </a>
        </p>
      )}
    </section>
  );
}

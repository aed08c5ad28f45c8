import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../i18n';

type Chart =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; url: string; size: number };

/**
 * The plan's prevalence chart (GET /api/statistics/:plan/charts/prevalence.svg): the report's own
 * Vega-Lite chart, drawn as SVG by the server, shown as an image (a blob: URL, which the page's
 * policy allows; the SVG is never put into the page's DOM). Fetched rather than linked so that
 * the caption names the checkpoint the server drew it at (X-Custody-Checkpoint), which can be a
 * later signed one than the tables'. The chart's own labels are English; the heading, caption and
 * alternative text are in the page's language.
 */
export function PrevalenceChart({ plan, findings }: { plan: string; findings: number }) {
  const { t, i18n } = useTranslation();
  const [chart, setChart] = useState<Chart>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    let url: string | null = null;
    setChart({ state: 'loading' });
    (async () => {
      const r = await window.fetch(
        `/api/statistics/${encodeURIComponent(plan)}/charts/prevalence.svg`,
        { credentials: 'same-origin', cache: 'no-store' },
      );
      if (!r.ok) {
        const body = (await r.json().catch(() => null)) as { message?: string } | null;
        throw new Error(body?.message ?? `HTTP ${r.status}`);
      }
      const size = Number(r.headers.get('x-custody-checkpoint'));
      const blob = await r.blob();
      if (!live) return;
      url = URL.createObjectURL(new Blob([blob], { type: 'image/svg+xml' }));
      setChart({ state: 'ready', url, size });
    })().catch((e: unknown) => {
      if (live) setChart({ state: 'failed', message: e instanceof Error ? e.message : String(e) });
    });
    return () => {
      live = false;
      if (url !== null) URL.revokeObjectURL(url);
    };
  }, [plan]);
  return (
    <section className="panel" aria-labelledby="chart-heading">
      <h2 id="chart-heading">{t('statistics.chart.heading')}</h2>
      <p className="muted">{t('statistics.chart.intro')}</p>
      {chart.state === 'loading' && (
        <p className="muted" role="status">
          {t('statistics.chart.loading')}
        </p>
      )}
      {chart.state === 'failed' && (
        <p className="alert" role="alert" data-testid="chart-failed">
          {t('statistics.chart.failed', { message: chart.message })}
        </p>
      )}
      {chart.state === 'ready' && (
        <figure className="stats-chart" data-testid="prevalence-chart">
          <img
            src={chart.url}
            alt={t('statistics.chart.alt', { n: formatCount(findings, i18n.language) })}
            data-checkpoint={chart.size}
          />
          <figcaption>
            <bdi>{t('statistics.chart.caption', { plan })}</bdi>
            {' · '}
            <span data-testid="chart-checkpoint">
              {t('statistics.checkpoint.caption', {
                size: formatCount(chart.size, i18n.language),
              })}
            </span>
            <span className="muted figure-kind">{t('statistics.chart.english')}</span>
          </figcaption>
        </figure>
      )}
    </section>
  );
}

import { useTranslation } from 'react-i18next';
import { formatCount } from '../i18n';
import { Link } from '../router';
import { useRevealedToday } from './store';
import './safeguards.css';

/** In the account area: today's count of revealed images (this browser) and the settings link. */
export function RevealedToday() {
  const { t, i18n } = useTranslation();
  const { count } = useRevealedToday();
  return (
    <>
      <span
        className="reveal-count"
        data-testid="revealed-today"
        data-count={count}
        title={t('safeguards.todayNote')}
      >
        {t('safeguards.today', { n: formatCount(count, i18n.language) })}
      </span>
      <Link href="/settings" className="button quiet" data-testid="settings-link">
        {t('safeguards.settingsLink')}
      </Link>
    </>
  );
}

/** The gentle break reminder: a dismissible note, never a dialog that blocks the page. */
export function BreakReminder() {
  const { t, i18n } = useTranslation();
  const { count, reminder, dismiss } = useRevealedToday();
  return (
    <div role="status" className="break-reminder-live">
      {reminder && (
        <aside
          className="break-reminder"
          data-testid="break-reminder"
          aria-labelledby="break-reminder-heading"
        >
          <h2 id="break-reminder-heading">{t('safeguards.reminder.heading')}</h2>
          <p>{t('safeguards.reminder.body', { n: formatCount(count, i18n.language) })}</p>
          <button type="button" className="button quiet" onClick={dismiss}>
            {t('safeguards.reminder.dismiss')}
          </button>
        </aside>
      )}
    </div>
  );
}

/**
 * The content warning of printed pages: hidden on screen; in print (safeguards.css) it stands at
 * the top of every printed page, on pages that show any image.
 */
export function PrintWarning() {
  const { t } = useTranslation();
  return (
    <p className="print-warning" data-testid="print-warning">
      {t('safeguards.print')}
    </p>
  );
}

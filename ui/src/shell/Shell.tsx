import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { roleLabel } from '../i18n/roles';
import { navPagesFor } from '../pages';
import { Link } from '../router';
import { useSession } from '../session/session';
import { BreakReminder, PrintWarning, RevealedToday } from '../safeguards/ShellSafeguards';
import { LanguageSwitch } from './LanguageSwitch';

/** The frame of every signed-in page: skip link, banner with navigation and account, main. */
export function Shell({ path, children }: { path: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { session, signOut } = useSession();
  const [leaving, setLeaving] = useState(false);
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);

  // After a navigation, move focus to the new page so that keyboard and screen-reader users
  // start reading it (not on the first load: the skip link comes first then).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus();
  }, [path]);

  return (
    <>
      <PrintWarning />
      <a className="skip-link" href="#main">
        {t('skipLink')}
      </a>
      <header className="banner">
        <div className="banner-inner">
          <Link href="/" className="brand">
            <span className="brand-mark" aria-hidden="true" />
            <span className="brand-name">{t('app.name')}</span>
            <span className="brand-tagline">{t('app.tagline')}</span>
          </Link>
          <nav aria-label={t('nav.label')} className="main-nav">
            <ul>
              {navPagesFor(session.permissions).map((p) => (
                <li key={p.path}>
                  <Link href={p.path} aria-current={p.path === path ? 'page' : undefined}>
                    {t(p.label)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <section className="account" aria-label={t('account.label')}>
            <span className="account-name" data-testid="account-name">
              {session.name}
            </span>
            <span className="role-badge" data-testid="account-role">
              {t('account.role', { role: roleLabel(t, session.role) })}
            </span>
            <RevealedToday />
            <LanguageSwitch />
            <button
              type="button"
              className="button quiet"
              disabled={leaving}
              onClick={() => {
                setLeaving(true);
                void signOut().finally(() => setLeaving(false));
              }}
            >
              {leaving ? t('account.signingOut') : t('account.signOut')}
            </button>
          </section>
        </div>
      </header>
      <BreakReminder />
      <main id="main" tabIndex={-1} ref={main}>
        {children}
      </main>
    </>
  );
}

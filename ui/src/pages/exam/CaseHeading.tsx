import { useTranslation } from 'react-i18next';
import { Link } from '../../router';
import type { Load } from './QueuePage';

/** The top of a case page (examiner's or adjudicator's): the way back, the case's code, and the load state. */
export function CaseHeading({
  back,
  backLabel,
  code,
  valid,
  load,
}: {
  back: string;
  backLabel: string;
  code: string;
  /** Whether the address names a plan and a case code at all. */
  valid: boolean;
  load: Load<unknown>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <p>
        <Link href={back}>{backLabel}</Link>
      </p>
      <h1>{t('exam.case.heading', { code })}</h1>
      {!valid && (
        <p className="alert" role="alert">
          {t('exam.case.badAddress')}
        </p>
      )}
      {valid && load.state === 'loading' && <p role="status">{t('exam.loading')}</p>}
      {load.state === 'failed' && (
        <p className="alert" role="alert">
          {t('exam.error', { message: load.message })}
        </p>
      )}
    </>
  );
}

import { useTranslation } from 'react-i18next';
import { Link } from '../router';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="page narrow">
      <h1>{t('notFound.heading')}</h1>
      <p>{t('notFound.body')}</p>
      <p>
        <Link href="/">{t('notFound.back')}</Link>
      </p>
    </div>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocationSearch } from '../../router';
import { ContactReadForm, ContactShown } from './ContactRead';
import type { ReportContact, ReportView } from './types';
import '../catalogue/catalogue.css';
import './missing.css';

/**
 * /missing/contact?id=…: the source custodian's page. A custodian has no report page (that is the
 * family liaison's work, and needs identification.manage); here they name the report and a reason,
 * and the contact is shown once the read is recorded in the ledger.
 */
export function MissingContactPage() {
  const { t } = useTranslation();
  const search = useLocationSearch();
  const id = new URLSearchParams(search).get('id') ?? '';
  const [read, setRead] = useState<ReportView | null>(null);
  const contact =
    read !== null && typeof read.content.contact === 'object' ? read.content.contact : null;
  return (
    <div className="page catalogue-page missing-contact-page">
      <h1>{t('missingContact.heading')}</h1>
      <p className="muted">{t('missingContact.intro')}</p>
      <section className="panel" aria-labelledby="contact-form-heading">
        <h2 id="contact-form-heading">{t('missingReport.contact.read')}</h2>
        <ContactReadForm key={id} initialId={id} onRead={setRead} />
      </section>
      {read !== null && (
        <section className="panel" aria-labelledby="contact-result">
          <h2 id="contact-result">{t('missingContact.result', { id: read.id })}</h2>
          {contact === null ? (
            <p>{t('missingReport.contact.none')}</p>
          ) : (
            <ContactShown contact={contact as ReportContact} seq={read.contact_read_seq} />
          )}
        </section>
      )}
    </div>
  );
}

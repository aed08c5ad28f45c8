import { Fragment, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocationPath, Link } from '../../router';
import { useSession } from '../../session/session';
import { useLoad } from '../catalogue/useLoad';
import { Candidates } from './Candidates';
import { ContactReadForm, ContactShown } from './ContactRead';
import { IdentificationExport } from './IdentificationExport';
import { ReviewedSubjects } from './Identification';
import type { Mark, ReportContact, ReportView, SubjectLinksView } from './types';
import '../catalogue/catalogue.css';
import './missing.css';

/** The AM fields of the identification codebook, in its order (custody missing codebook). */
const AM_FIELDS = [
  'height_cm',
  'build',
  'hair_colour',
  'facial_hair',
  'eye_colour',
  'marks',
  'dental',
  'clothing',
  'medical',
  'effects',
] as const;

/** /missing/ID: one report as the family gave it, its consent, its sealed contact, its candidates. */
export function MissingReportPage() {
  const { t } = useTranslation();
  const { api, session } = useSession();
  const id = decodeURIComponent(useLocationPath().replace(/^\/missing\//, '')).toUpperCase();
  const [load] = useLoad(`missing ${id}`, () =>
    api.get<ReportView>(`/api/missing/${encodeURIComponent(id)}`),
  );
  const [read, setRead] = useState<ReportView | null>(null);
  const [links, reloadLinks] = useLoad(`missing ${id} subjects`, () =>
    api.get<SubjectLinksView>(`/api/missing/${encodeURIComponent(id)}/subjects`),
  );
  const custodian = (session.permissions ?? []).includes('source.read-identity');
  const back = (
    <p>
      <Link href="/missing">{t('missingReport.back')}</Link>
    </p>
  );
  if (load.state !== 'ready')
    return (
      <div className="page catalogue-page">
        {back}
        <h1>{t('missingReport.heading', { id })}</h1>
        {load.state === 'loading' ? (
          <p className="muted" role="status">
            {t('missingReport.loading')}
          </p>
        ) : (
          <p className="alert" role="alert">
            {load.code === 'MISSING_REPORT_FORBIDDEN'
              ? t('missingReport.forbidden')
              : t('missingReport.error', { message: load.message })}
          </p>
        )}
        {load.state === 'failed' && custodian && (
          // A source custodian has no report page (it needs identification.manage), only the contact read.
          <p>
            <Link href={`/missing/contact?id=${encodeURIComponent(id)}`}>
              {t('missingReport.contact.read')}
            </Link>
          </p>
        )}
      </div>
    );
  const v = load.value;
  const c = v.content;
  const contact =
    read !== null && typeof read.content.contact === 'object' ? read.content.contact : null;
  return (
    <div className="page catalogue-page missing-page">
      {back}
      <h1 data-testid="report-heading">
        {c.name_ar !== null && (
          <bdi dir="auto" lang="ar">
            {c.name_ar}
          </bdi>
        )}
        {c.name_ar !== null && c.name_latin !== null && ' · '}
        {c.name_latin !== null && (
          <bdi dir="ltr" lang="en">
            {c.name_latin}
          </bdi>
        )}
      </h1>
      <p className="muted">
        {t('missingReport.heading', { id: v.id })} ·{' '}
        {t('missingReport.recorded', {
          org: `\u2068${v.org}\u2069`,
          date: v.recorded_at.slice(0, 10),
          by: `\u2068${v.recorded_by}\u2069`,
        })}
      </p>
      <PersonFacts v={v} />
      <AmFacts am={c.am} />
      <Consent v={v} />
      <section className="panel" aria-labelledby="report-contact">
        <h2 id="report-contact">{t('missingReport.contact.heading')}</h2>
        {c.contact === null ? (
          <p data-testid="contact-state">{t('missingReport.contact.none')}</p>
        ) : contact !== null ? (
          <ContactShown contact={contact as ReportContact} seq={read?.contact_read_seq ?? null} />
        ) : (
          <>
            <p data-testid="contact-state" data-state="sealed">
              {t('missingReport.contact.sealed')}
            </p>
            {custodian && <ContactReadForm reportId={v.id} onRead={setRead} />}
          </>
        )}
      </section>
      <Candidates
        id={v.id}
        links={links.state === 'ready' ? links.value.links : null}
        onReviewed={reloadLinks}
      />
      <ReviewedSubjects report={v.id} links={links} reload={reloadLinks} />
      <IdentificationExport report={v.id} />
    </div>
  );
}

function Facts({ rows, testid }: { rows: [string, ReactNode | null][]; testid: string }) {
  return (
    <dl className="facts" data-testid={testid}>
      {rows
        .filter(([, v]) => v !== null)
        .map(([label, v]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{v}</dd>
          </Fragment>
        ))}
    </dl>
  );
}

/** A name or place as the family wrote it, isolated so that Arabic and Latin text do not mix. */
const text = (s: string | null): ReactNode | null =>
  s === null ? null : <bdi dir="auto">{s}</bdi>;
const ltr = (s: string | null): ReactNode | null => (s === null ? null : <bdi dir="ltr">{s}</bdi>);

function PersonFacts({ v }: { v: ReportView }) {
  const { t } = useTranslation();
  const c = v.content;
  const when = [c.event_date, c.event_place].filter((x): x is string => x !== null);
  const unit =
    c.unit === null
      ? null
      : c.unit.id === null
        ? t('missingReport.person.unitNotInRegistry', { unit: `\u2068${c.unit.as_reported}\u2069` })
        : t('missingReport.person.unitInRegistry', {
            unit: `\u2068${c.unit.as_reported}\u2069`,
            id: c.unit.id,
          });
  const event =
    c.event === 'arrest'
      ? t('missingReport.person.arrested')
      : c.event === 'last_seen'
        ? t('missingReport.person.lastSeen')
        : t('missingReport.person.event');
  return (
    <section className="panel" aria-labelledby="report-person">
      <h2 id="report-person">{t('missingReport.person.heading')}</h2>
      <Facts
        testid="report-person"
        rows={[
          [t('missingReport.person.nameAr'), text(c.name_ar)],
          [t('missingReport.person.nameLatin'), ltr(c.name_latin)],
          [t('missingReport.person.father'), text(c.father_name)],
          [t('missingReport.person.grandfather'), text(c.grandfather_name)],
          [t('missingReport.person.family'), text(c.family_name)],
          [t('missingReport.person.mother'), text(c.mother_name)],
          [
            t('missingReport.person.sex'),
            c.sex === null ? null : t(`missingReport.sexes.${c.sex}`),
          ],
          [t('missingReport.person.born'), ltr(c.birth)],
          [t('missingReport.person.origin'), text(c.origin)],
          [event, when.length === 0 ? null : <bdi dir="auto">{when.join(', ')}</bdi>],
          [t('missingReport.person.unit'), unit],
          [t('missingReport.person.reference'), text(c.reference ?? null)],
        ]}
      />
    </section>
  );
}

function AmFacts({ am }: { am: Record<string, unknown> }) {
  const { t } = useTranslation();
  const rows: [string, ReactNode | null][] = AM_FIELDS.filter(
    (f) => am[f] !== undefined && am[f] !== null,
  ).map((f) => [
    t(`missingReport.am.${f}`),
    f === 'marks' ? <Marks marks={am[f]} /> : text(String(am[f])),
  ]);
  return (
    <section className="panel" aria-labelledby="report-am">
      <h2 id="report-am">{t('missingReport.am.heading')}</h2>
      {rows.length === 0 ? (
        <p className="muted">{t('missingReport.am.none')}</p>
      ) : (
        <Facts testid="report-am" rows={rows} />
      )}
    </section>
  );
}

/** Marks in the codebook's terms: kind (region), then the family's description. */
function Marks({ marks }: { marks: unknown }) {
  const { t, i18n } = useTranslation();
  const list = Array.isArray(marks) ? (marks as Mark[]) : [];
  const term = (group: 'markKinds' | 'regions', code: string): string =>
    i18n.exists(`missingReport.${group}.${code}`)
      ? t(`missingReport.${group}.${code}` as never)
      : code;
  return (
    <ul className="marks" data-testid="report-marks">
      {list.map((m, i) => (
        <li key={i} data-region={m.region} data-kind={m.kind}>
          {t('missingReport.am.mark', {
            kind: term('markKinds', m.kind),
            region: term('regions', m.region),
          })}
          {m.description !== null && (
            <>
              {': '}
              <bdi dir="auto">{m.description}</bdi>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

function Consent({ v }: { v: ReportView }) {
  const { t } = useTranslation();
  const c = v.content.consent;
  return (
    <section className="panel" aria-labelledby="report-consent">
      <h2 id="report-consent">{t('missingReport.consent.heading')}</h2>
      <Facts
        testid="report-consent"
        rows={[
          [
            t('missingReport.consent.orgs'),
            <ul className="plain-list" data-testid="consent-orgs">
              <li>{t('missingReport.consent.reporting', { org: `\u2068${v.org}\u2069` })}</li>
              {c.orgs.map((o) => (
                <li key={o}>
                  <bdi dir="auto">{o}</bdi>
                </li>
              ))}
            </ul>,
          ],
          [
            t('missingReport.consent.photographs'),
            c.photographs === 'yes'
              ? t('missingReport.consent.photographsYes', {
                  liaison: `\u2068${c.liaison ?? '?'}\u2069`,
                })
              : t('missingReport.consent.photographsNo'),
          ],
        ]}
      />
    </section>
  );
}

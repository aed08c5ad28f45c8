import type { ComponentType } from 'react';
import { AuditPage } from './AuditPage';
import { EvidencePage } from './EvidencePage';
import { ItemPage } from './item/ItemPage';
import { LinkingPage } from './catalogue/LinkingPage';
import { StatisticsPage } from './catalogue/StatisticsPage';
import { SubjectsPage } from './catalogue/SubjectsPage';
import { UnitsPage } from './catalogue/UnitsPage';
import { NotFoundPage } from './NotFoundPage';
import { OverviewPage } from './OverviewPage';
import { MissingContactPage } from './missing/MissingContactPage';
import { MissingListPage } from './missing/MissingListPage';
import { MissingReportPage } from './missing/MissingReportPage';
import { SettingsPage } from '../safeguards/SettingsPage';
import { AdjudicationCasePage, AdjudicationQueuePage } from './exam/AdjudicationPage';
import { CasePage } from './exam/CasePage';
import { KeyPage } from './exam/KeyPage';
import { QueuePage } from './exam/QueuePage';

/**
 * The signed-in pages, in the order of the navigation. A new page (evidence browser, item,
 * examination, statistics…) adds one entry here and its strings in i18n/en.ts and i18n/ar.ts.
 */
export interface PageDef {
  path: string;
  label:
    | 'nav.overview'
    | 'nav.evidence'
    | 'nav.subjects'
    | 'nav.units'
    | 'nav.linking'
    | 'nav.statistics'
    | 'nav.audit'
    | 'missing.nav'
    | 'missingContact.nav'
    | 'nav.examination'
    | 'nav.adjudication'
    | 'nav.key';
  component: ComponentType;
  /** Shown in the navigation only to roles with this permission, or one of these (the server checks every request regardless). */
  permission?: string | readonly string[];
}

export const NAV_PAGES: readonly PageDef[] = [
  { path: '/', label: 'nav.overview', component: OverviewPage },
  {
    path: '/evidence',
    label: 'nav.evidence',
    component: EvidencePage,
    permission: 'evidence.read',
  },
  {
    path: '/subjects',
    label: 'nav.subjects',
    component: SubjectsPage,
    permission: 'evidence.read',
  },
  { path: '/units', label: 'nav.units', component: UnitsPage, permission: 'evidence.read' },
  { path: '/linking', label: 'nav.linking', component: LinkingPage, permission: 'catalogue.write' },
  {
    path: '/statistics',
    label: 'nav.statistics',
    component: StatisticsPage,
    permission: 'statistics.read',
  },
  { path: '/audit', label: 'nav.audit', component: AuditPage, permission: 'ledger.read' },
  {
    path: '/missing',
    label: 'missing.nav',
    component: MissingListPage,
    permission: 'identification.manage',
  },
  {
    path: '/missing/contact',
    label: 'missingContact.nav',
    component: MissingContactPage,
    permission: 'source.read-identity',
  },
  {
    path: '/examination',
    label: 'nav.examination',
    component: QueuePage,
    permission: 'examination.submit',
  },
  {
    path: '/adjudication',
    label: 'nav.adjudication',
    component: AdjudicationQueuePage,
    permission: 'examination.adjudicate',
  },
  {
    path: '/key',
    label: 'nav.key',
    component: KeyPage,
    permission: ['examination.submit', 'examination.adjudicate'],
  },
];

/** The pages a session's navigation lists. */
export function navPagesFor(permissions: readonly string[] | undefined): PageDef[] {
  const has = (p: string): boolean => (permissions ?? []).includes(p);
  return NAV_PAGES.filter(
    (p) =>
      p.permission === undefined ||
      (typeof p.permission === 'string' ? has(p.permission) : p.permission.some(has)),
  );
}

/** Pages reached from others (not in the navigation), by path prefix. */
const INNER_PAGES: readonly { prefix: string; component: ComponentType }[] = [
  { prefix: '/items/', component: ItemPage },
  { prefix: '/missing/', component: MissingReportPage },
  { prefix: '/settings', component: SettingsPage },
  { prefix: '/examination/case', component: CasePage },
  { prefix: '/adjudication/case', component: AdjudicationCasePage },
];

export function pageFor(path: string): ComponentType {
  return (
    NAV_PAGES.find((p) => p.path === path)?.component ??
    INNER_PAGES.find((p) => path.startsWith(p.prefix))?.component ??
    NotFoundPage
  );
}

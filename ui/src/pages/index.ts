import type { ComponentType } from 'react';
import { EvidencePage } from './EvidencePage';
import { LinkingPage } from './catalogue/LinkingPage';
import { StatisticsPage } from './catalogue/StatisticsPage';
import { SubjectsPage } from './catalogue/SubjectsPage';
import { UnitsPage } from './catalogue/UnitsPage';
import { NotFoundPage } from './NotFoundPage';
import { OverviewPage } from './OverviewPage';

/**
 * The signed-in pages, in the order of the navigation. A new page (evidence browser, item,
 * examination, statistics…) adds one entry here and its strings in i18n/en.ts and i18n/ar.ts.
 */
export interface PageDef {
  path: string;
  label: 'nav.overview' | 'nav.evidence' | 'nav.subjects' | 'nav.units' | 'nav.linking' | 'nav.statistics';
  component: ComponentType;
}

export const NAV_PAGES: readonly PageDef[] = [
  { path: '/', label: 'nav.overview', component: OverviewPage },
  { path: '/evidence', label: 'nav.evidence', component: EvidencePage },
  { path: '/subjects', label: 'nav.subjects', component: SubjectsPage },
  { path: '/units', label: 'nav.units', component: UnitsPage },
  { path: '/linking', label: 'nav.linking', component: LinkingPage },
  { path: '/statistics', label: 'nav.statistics', component: StatisticsPage },
];

export function pageFor(path: string): ComponentType {
  return NAV_PAGES.find((p) => p.path === path)?.component ?? NotFoundPage;
}

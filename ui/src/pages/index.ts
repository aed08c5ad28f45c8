import type { ComponentType } from 'react';
import { EvidencePage } from './EvidencePage';
import { NotFoundPage } from './NotFoundPage';
import { OverviewPage } from './OverviewPage';

/**
 * The signed-in pages, in the order of the navigation. A new page (evidence browser, item,
 * examination, statistics…) adds one entry here and its strings in i18n/en.ts and i18n/ar.ts.
 */
export interface PageDef {
  path: string;
  label: 'nav.overview' | 'nav.evidence';
  component: ComponentType;
}

export const NAV_PAGES: readonly PageDef[] = [
  { path: '/', label: 'nav.overview', component: OverviewPage },
  { path: '/evidence', label: 'nav.evidence', component: EvidencePage },
];

export function pageFor(path: string): ComponentType {
  return NAV_PAGES.find((p) => p.path === path)?.component ?? NotFoundPage;
}

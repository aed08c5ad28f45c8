import { auditRoutes } from './audit.routes.js';
import { catalogueRoutes } from './catalogue.routes.js';
import { evidenceRoutes } from './evidence.routes.js';
import { identificationRoutes } from './identification.routes.js';
import { itemRoutes } from './items.routes.js';
import { ledgerRoutes } from './ledger.routes.js';
import { linkingRoutes } from './linking.routes.js';
import type { RouteDef } from './route.js';
import { decisionRoutes } from './decisions.routes.js';
import { sessionRoutes } from './session.routes.js';
import { statisticsRoutes } from './statistics.routes.js';
import { statusRoutes } from './status.routes.js';
import { verificationRoutes } from './verification.routes.js';
import { personKeyRoutes } from './person-keys.routes.js';
import { examinationRoutes } from './examination.routes.js';
import { planRoutes } from './plans.routes.js';
import { adjudicationRoutes } from './adjudication.routes.js';
import { exportRoutes } from './exports.routes.js';

/** Every route of the server, by area. A new area's routes are added here. */
export const ALL_ROUTES: readonly RouteDef[] = [
  ...sessionRoutes,
  ...statusRoutes,
  ...verificationRoutes,
  ...itemRoutes,
  ...evidenceRoutes,
  ...catalogueRoutes,
  ...statisticsRoutes,
  ...ledgerRoutes,
  ...auditRoutes,
  ...decisionRoutes,
  ...identificationRoutes,
  ...linkingRoutes,
  ...personKeyRoutes,
  ...planRoutes,
  ...examinationRoutes,
  ...adjudicationRoutes,
  ...exportRoutes,
];

export { defineRoute, type Access, type RouteDef, type RouteInfo } from './route.js';

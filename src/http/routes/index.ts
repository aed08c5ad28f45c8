import type { RouteDef } from './route.js';
import { decisionRoutes } from './decisions.routes.js';
import { sessionRoutes } from './session.routes.js';
import { statusRoutes } from './status.routes.js';

/** Every route of the server, by area. A new area's routes are added here. */
export const ALL_ROUTES: readonly RouteDef[] = [...sessionRoutes, ...statusRoutes, ...decisionRoutes];

export { defineRoute, type Access, type RouteDef, type RouteInfo } from './route.js';

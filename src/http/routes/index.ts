import type { RouteDef } from './route.js';
import { sessionRoutes } from './session.routes.js';
import { statusRoutes } from './status.routes.js';

/** Every route of the server, by area. A new area's routes are added here. */
export const ALL_ROUTES: readonly RouteDef[] = [...sessionRoutes, ...statusRoutes];

export { defineRoute, type Access, type RouteDef, type RouteInfo } from './route.js';

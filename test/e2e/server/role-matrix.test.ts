// Issue 12, "Tests" → role matrix: every role against every route, through fastify.inject(),
// generated from the permission table and the route registry (server.custody.routes), so that
// a new route, or a new role, is covered without editing this file; a route whose access entry
// is not one of public / signed-in / a permission of the matrix fails here.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { can, PERMISSIONS, ROLES, type Role } from '../../../src/accounts/index.js';
import { ALL_ROUTES, type RouteInfo } from '../../../src/http/routes/index.js';
import { describeDatabases } from '../../support/postgres.js';
import { placeholderRequest } from '../../support/route-placeholders.js';
import { servedArchive, signIn, type Client, type ServedArchive } from '../../support/server.js';

const nameOf = (role: Role): string => `Staff ${role}`;
const PASSING = new Set(['HTTP_UNAUTHENTICATED', 'HTTP_FORBIDDEN', 'HTTP_CSRF', 'HTTP_BAD_REQUEST']);

function access(route: RouteInfo): string {
  const a = route.access as unknown;
  if (a === 'public' || a === 'signed-in') return a;
  const p = (a as { permission?: unknown } | null)?.permission;
  if (typeof p === 'string' && (PERMISSIONS as readonly string[]).includes(p)) return p;
  throw new Error(`${route.method} ${route.url} has no access entry of the matrix: ${JSON.stringify(a)}`);
}

describeDatabases('role matrix', (db) => {
  let s: ServedArchive;
  let cleanup: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    s = await servedArchive(
      `role-matrix-${db.kind}`,
      ROLES.map((r) => [nameOf(r), r] as const),
      { dbUrl: made.url, server: { signIn: { perIpPerMinute: 10_000 } } },
    );
  });
  afterAll(async () => {
    await s?.close();
    await cleanup();
  });

  it('every registered route has an access entry of the matrix, and a schema the placeholders satisfy', () => {
    expect(s.server.custody.routes.length).toBeGreaterThan(3);
    for (const route of s.server.custody.routes) {
      access(route);
      const def = ALL_ROUTES.find((d) => d.method === route.method && d.url === route.url);
      expect(def, `${route.method} ${route.url}`).toBeDefined();
      placeholderRequest(def!);
    }
  });

  it('each route: without a session, public routes answer and the others refuse (401 HTTP_UNAUTHENTICATED); signed in as each role, allowed or refused (403 HTTP_FORBIDDEN) exactly as can(role, permission) says', async () => {
    const sessions = new Map<Role, Client>();
    const session = async (role: Role): Promise<Client> => {
      let c = sessions.get(role);
      if (c === undefined) sessions.set(role, (c = await signIn(s.server, nameOf(role))));
      return c;
    };
    const seen: string[] = [];
    for (const route of s.server.custody.routes) {
      const a = access(route);
      const def = ALL_ROUTES.find((d) => d.method === route.method && d.url === route.url)!;
      const { url, body } = placeholderRequest(def);
      const label = `${route.method} ${route.url}`;
      const anonymous = await s.server.inject({
        method: route.method,
        url,
        ...(body === undefined ? {} : { payload: body as object }),
      });
      const anonCode = anonymous.json<{ code?: string }>().code;
      if (a === 'public') {
        expect(PASSING.has(anonCode ?? ''), `${label} anonymous: ${anonymous.body}`).toBe(false);
      } else {
        expect([anonymous.statusCode, anonCode], `${label} anonymous`).toEqual([401, 'HTTP_UNAUTHENTICATED']);
      }
      for (const role of ROLES) {
        const c = await session(role);
        const r = await c.request(route.method, url, body);
        // A state-changing request may end its session (sign-out, a new sign-in): the next
        // request then signs in afresh. Probing is cheap; a sign-in costs an Argon2id hash.
        if (route.method !== 'GET' && (await c.request('GET', '/api/session')).statusCode !== 200)
          sessions.delete(role);
        const code = r.statusCode === 204 ? undefined : r.json<{ code?: string }>().code;
        const allowed = a === 'public' || a === 'signed-in' || can(role, a as never);
        if (allowed)
          expect(PASSING.has(code ?? ''), `${label} as ${role}: ${r.statusCode} ${r.body}`).toBe(false);
        else expect([r.statusCode, code], `${label} as ${role}`).toEqual([403, 'HTTP_FORBIDDEN']);
        seen.push(`${label} ${role} ${allowed ? 'allowed' : 'refused'}`);
      }
    }
    expect(seen).toHaveLength(s.server.custody.routes.length * ROLES.length);
    expect(seen.some((x) => x.endsWith('refused'))).toBe(true);
  }, 600_000); // every route × every role: minutes on a loaded machine

  it('a route added without a known permission fails the matrix', () => {
    expect(() =>
      access({ method: 'GET', url: '/api/x', access: { permission: 'nothing.at-all' as never }, blind: 'none' }),
    ).toThrow(/no access entry/);
    expect(() => access({ method: 'GET', url: '/api/x', access: undefined as never, blind: 'none' })).toThrow(
      /no access entry/,
    );
  });
});

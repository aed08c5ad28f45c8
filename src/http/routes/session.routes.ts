import { Type } from 'typebox';
import { DECOY_HASH, hashPassword, isRole, needsRehash, PERMISSION_MATRIX, verifyPassword } from '../../accounts/index.js';
import { HttpError } from '../errors.js';
import { defineRoute, type RouteDef } from './route.js';

const SessionView = Type.Object({
  account: Type.String(),
  name: Type.String(),
  role: Type.String(),
  org: Type.Union([Type.String(), Type.Null()]),
  csrf_token: Type.String({
    description: 'send it back in the x-csrf-token header of every state-changing request',
  }),
  idle_timeout_s: Type.Integer(),
  permissions: Type.Array(Type.String(), {
    description: "what the account's role may do (the permission matrix); the server checks every request regardless",
  }),
});

export const sessionRoutes: RouteDef[] = [
  defineRoute({
    method: 'POST',
    url: '/api/session',
    blind: 'none',
    access: 'public',
    summary: 'sign in: a new session cookie (HttpOnly, SameSite=Strict) and its CSRF token',
    tags: ['session'],
    schema: {
      body: Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 200 }),
          password: Type.String({ minLength: 1, maxLength: 1024 }),
        },
        { additionalProperties: false },
      ),
      response: { 200: SessionView },
    },
    writes: true,
    async handler({ body, request, reply, archive }) {
      const { accounts, sessions, secureCookies, signIn } = request.server.custody;
      // The counts of failed sign-ins of hours that have ended go to the ledger first.
      await request.server.custody.flushFailureCounts(false, true); // this route runs in the write queue
      const account = await accounts.find(body.name).catch(() => undefined);
      // A locked name is refused before its password is even checked (the lock is by the name's
      // MAC, whether or not an account has it).
      await signIn.assertNotLocked(body.name, request.ip, account?.id ?? null);
      const hash =
        account === undefined ? undefined : await archive.index.getAccountPassword(account.id);
      const ok = (await verifyPassword(body.password, hash ?? DECOY_HASH)) && hash !== undefined;
      if (account === undefined || !ok || account.disabled) {
        // The security log, never the ledger: the typed name only as a MAC, the password not at all.
        await signIn.failed(
          body.name,
          request.ip,
          account?.id ?? null,
          account === undefined ? 'unknown-name' : ok ? 'disabled' : 'wrong-password',
        );
        throw new HttpError(
          'HTTP_SIGN_IN_FAILED',
          'wrong name or password, or the account is disabled',
        );
      }
      signIn.succeeded(body.name);
      // A hash of an earlier release (scrypt) is replaced at the first sign-in that proves the
      // password: the index only, like every password hash (never the ledger).
      if (hash !== undefined && needsRehash(hash))
        await archive.index.setAccountPassword(account.id, await hashPassword(body.password));
      // A new session id at every sign-in: a cookie planted before it (fixation) is dropped.
      sessions.delete(request.sessionToken);
      const { token, session } = sessions.create(account.id, account.role as never);
      await archive.commit([
        {
          actor: account.id,
          type: 'cataloguing',
          items: [],
          objects: [],
          details: { action: 'account.sign-in', account: account.id },
        },
      ]);
      void reply.setCookie('custody_session', token, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure: secureCookies,
      });
      return view(account, session.csrfToken, request.server.custody);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/session',
    blind: 'none',
    access: 'signed-in',
    summary: 'the signed-in account, its role, and the CSRF token of its session',
    tags: ['session'],
    schema: { response: { 200: SessionView } },
    async handler({ request }) {
      const session = request.session!;
      const account = await request.server.custody.accounts.get(session.account);
      if (account === undefined) throw new HttpError('HTTP_UNAUTHENTICATED', 'sign in first');
      return view(account, session.csrfToken, request.server.custody);
    },
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/session',
    blind: 'none',
    access: 'signed-in',
    summary: 'sign out',
    tags: ['session'],
    schema: { response: { 204: Type.Null() } },
    async handler({ request, reply }) {
      request.server.custody.sessions.delete(request.sessionToken);
      void reply.clearCookie('custody_session', { path: '/' });
      return reply.status(204).send();
    },
  }),
];

function view(
  account: { id: string; name: string; role: string; org: string | null },
  csrf: string,
  state: { sessions: { idleTimeoutMs: number } },
): Record<string, unknown> {
  return {
    account: account.id,
    name: account.name,
    role: account.role,
    org: account.org,
    csrf_token: csrf,
    idle_timeout_s: Math.round(state.sessions.idleTimeoutMs / 1000),
    permissions: isRole(account.role) ? [...PERMISSION_MATRIX[account.role]] : [],
  };
}

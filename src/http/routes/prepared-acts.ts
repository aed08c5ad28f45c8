// Acts signed on the person's side in two steps (issue 12, "Signing happens on the person's
// side"): the server prepares (checks, seals, commits to the answer) and keeps the prepared act
// for a few minutes, bound to the session that prepared it; the browser signs the exact bytes;
// the server verifies the signature with the person's enrolled key and appends. Nothing is
// appended at prepare time, and a token is useless from any other session.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';

/** How long a prepared act waits for its signature. */
export const PREPARED_TTL_MS = 5 * 60 * 1000;
/** At most this many acts wait per session (memory is bounded whatever a client sends). */
const PER_SESSION = 20;

interface Pending<T> {
  kind: string;
  session: string;
  account: string;
  expires: number;
  value: T;
}

const stores = new WeakMap<FastifyInstance, Map<string, Pending<unknown>>>();

function storeOf(server: FastifyInstance): Map<string, Pending<unknown>> {
  let s = stores.get(server);
  if (s === undefined) stores.set(server, (s = new Map<string, Pending<unknown>>()));
  return s;
}

/** The session a request belongs to, by a hash of its cookie (never the cookie itself). */
function sessionOf(request: FastifyRequest): string {
  return createHash('sha256').update(request.sessionToken ?? '').digest('hex');
}

function sweep(store: Map<string, Pending<unknown>>, now: number): void {
  for (const [k, p] of store) if (p.expires <= now) store.delete(k);
}

/** Keeps `value` for this session; returns its token and when it expires. */
export function holdPrepared<T>(request: FastifyRequest, kind: string, value: T): { token: string; expires_at: string } {
  const server = request.server;
  const now = server.custody.clock().getTime();
  const store = storeOf(server);
  sweep(store, now);
  const session = sessionOf(request);
  const mine = [...store.entries()].filter(([, p]) => p.session === session);
  // The oldest goes first when a session holds too many.
  for (const [k] of mine.slice(0, Math.max(0, mine.length - PER_SESSION + 1))) store.delete(k);
  const token = randomBytes(24).toString('base64url');
  const expires = now + PREPARED_TTL_MS;
  store.set(token, { kind, session, account: request.session?.account ?? '', expires, value });
  return { token, expires_at: new Date(expires).toISOString() };
}

/**
 * The prepared act of `token` when this session prepared it, for this kind of act, and it has not
 * expired; refused (HTTP_PREPARED_UNKNOWN) otherwise, in the same words whichever it was, so a
 * token seen elsewhere tells nothing. `matches` checks the act is the one the route names.
 */
export function takePrepared<T>(request: FastifyRequest, kind: string, token: string, matches: (value: T) => boolean): { value: T; done(): void } {
  const store = storeOf(request.server);
  const now = request.server.custody.clock().getTime();
  sweep(store, now);
  const p = store.get(token);
  if (
    p === undefined ||
    p.kind !== kind ||
    p.session !== sessionOf(request) ||
    p.account !== request.session?.account ||
    !matches(p.value as T)
  )
    throw new HttpError('HTTP_PREPARED_UNKNOWN', `no ${kind} of that token was prepared in this session (a prepared ${kind} waits ${PREPARED_TTL_MS / 60_000} minutes): prepare it again`, {
      details: { kind },
    });
  return { value: p.value as T, done: () => store.delete(token) };
}

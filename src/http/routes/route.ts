import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { Archive } from '../../app.js';
import type { Permission } from '../../accounts/index.js';
import type { RequestContext } from '../request-context.js';

/**
 * Who may call a route: anyone (`public`: sign-in, the API description), any signed-in account
 * (`signed-in`: its own session), or the holders of one permission of the matrix
 * (src/accounts/permissions.ts). Every route names one; the role-matrix test is generated from
 * these, so a route without an entry cannot be registered.
 */
export type Access = 'public' | 'signed-in' | { permission: Permission };

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What the route shows of the catalogue, for blindness (issue 12, "Blinded cases"): an examiner or
 * adjudicator with cases still to submit in a plan is refused
 * - `refused`: the whole route (lists, the ledger, proofs, statistics, details that name units,
 *   subjects or near-duplicates: what cannot be narrowed to records outside the plan);
 * - `per-item`: the route for the items of their plans (`params.id` is an item id);
 * and nothing of a `none` route, which shows nothing of the catalogue (their session, the
 * archive's counts and signed root). Every route declares one; the blindness test walks them all.
 */
export type Blindness = 'refused' | 'per-item' | 'none';

interface Schemas {
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  response?: Record<number, TSchema>;
}

type Of<S, K extends keyof Schemas> = S extends { [P in K]: infer T extends TSchema }
  ? Static<T>
  : unknown;

/** What a handler receives: the parsed, validated input and the request's context. */
export interface RouteInput<S extends Schemas> {
  params: Of<S, 'params'>;
  query: Of<S, 'querystring'>;
  body: Of<S, 'body'>;
  /** Null only on `public` routes. */
  ctx: RequestContext | null;
  /** The archive as this request sees it (the account is the ledger's actor). */
  archive: Archive;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteDef<S extends Schemas = Schemas> {
  method: Method;
  url: string;
  access: Access;
  blind: Blindness;
  /** One line for the API description. */
  summary: string;
  tags: string[];
  schema: S;
  /**
   * A route that appends to the ledger runs in the server's write queue, one at a time, so that
   * what a service checked before it commits still holds when it commits.
   */
  writes?: boolean;
  handler(input: RouteInput<S>): Promise<unknown>;
}

/** Keeps the schema's types for the handler; the registry takes the routes as `RouteDef`. */
export function defineRoute<S extends Schemas>(def: RouteDef<S>): RouteDef {
  return def;
}

/** A route as the role-matrix test and the API description list it. */
export interface RouteInfo {
  method: Method;
  url: string;
  access: Access;
  blind: Blindness;
}

export function fastifySchema(def: RouteDef): FastifySchema {
  return { summary: def.summary, tags: def.tags, ...def.schema };
}

export type { FastifyInstance };

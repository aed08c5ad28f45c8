import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { accountsPorts, type Archive } from '../app.js';
import { can } from '../accounts/index.js';
import { CustodyError } from '../core/index.js';
import { isErrorCode } from '../error-codes.js';
import { httpStatusFor } from './error-status.js';
import { HttpError, type ErrorBody } from './errors.js';
import { archiveFor, type RequestContext } from './request-context.js';
import { fastifySchema, type RouteDef, type RouteInfo } from './routes/route.js';
import { ALL_ROUTES } from './routes/index.js';
import { AccountDirectory } from './session/account-directory.js';
import { defaultUiDir, registerWebUi } from './web-ui.js';
import { csrfMatches, SessionStore, type Session } from './session/session-store.js';

export const SESSION_COOKIE = 'custody_session';
export const CSRF_HEADER = 'x-csrf-token';
const IDLE_TIMEOUT_MS = 30 * 60 * 1000;
const BODY_LIMIT = 1024 * 1024;

export interface ServerOptions {
  /** Opened in write mode for the server's lifetime: the server is the archive's one writer. */
  archive: Archive;
  clock?: () => Date;
  idleTimeoutMs?: number;
  /** Cookies carry `Secure` (set when the server is behind TLS). */
  secureCookies?: boolean;
  /** Fastify's request log (pino); off in tests. */
  logger?: boolean;
  /** Extra routes (tests, later modules); each still needs an access entry. */
  routes?: readonly RouteDef[];
  /** The built web UI (dist/ui of this checkout by default); null serves none. */
  uiDir?: string | null;
}

/** What every route handler may reach through `request.server.custody`. */
export interface ServerState {
  readonly archive: Archive;
  readonly sessions: SessionStore;
  readonly accounts: AccountDirectory;
  readonly clock: () => Date;
  readonly routes: readonly RouteInfo[];
  readonly secureCookies: boolean;
  /** Runs ledger-writing handlers one at a time. */
  serialWrite<T>(f: () => Promise<T>): Promise<T>;
}

declare module 'fastify' {
  interface FastifyInstance {
    custody: ServerState;
  }
  interface FastifyRequest {
    session: Session | undefined;
    sessionToken: string | undefined;
  }
}

/** Builds the server (not listening): `custody serve` listens; tests call `inject()`. */
export async function buildServer(opts: ServerOptions): Promise<FastifyInstance> {
  const clock = opts.clock ?? (() => new Date());
  const app = Fastify({
    logger: opts.logger === true,
    bodyLimit: BODY_LIMIT,
    // Ids in paths are checked by each route's schema; nothing is a file path.
    routerOptions: { maxParamLength: 200 },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  let queue: Promise<unknown> = Promise.resolve();
  const routes = [...ALL_ROUTES, ...(opts.routes ?? [])];
  const state: ServerState = {
    archive: opts.archive,
    sessions: new SessionStore(opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS, () => clock().getTime()),
    accounts: new AccountDirectory(() => accountsPorts(opts.archive)),
    clock,
    routes: routes.map((r) => ({ method: r.method, url: r.url, access: r.access })),
    secureCookies: opts.secureCookies === true,
    serialWrite<T>(f: () => Promise<T>): Promise<T> {
      const run = queue.then(f, f);
      queue = run.catch(() => undefined);
      return run;
    },
  };
  // JSON only: a body of any other type is refused (415), never parsed as text.
  app.removeContentTypeParser(['text/plain']);
  app.decorate('custody', state);
  app.decorateRequest('session', undefined);
  app.decorateRequest('sessionToken', undefined);

  await app.register(cookie);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Custody',
        version: '1',
        description:
          'The team server of a Custody archive. Errors are {code, message, details}; the codes are stable.',
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
      },
    },
  });

  app.setErrorHandler((error: FastifyError, request, reply) =>
    sendError(reply, toErrorBody(error, request)),
  );
  const uiFallback = await registerWebUi(
    app,
    opts.uiDir === undefined ? defaultUiDir() : opts.uiDir,
  );
  app.setNotFoundHandler((request, reply) =>
    uiFallback(request, reply)
      ? reply
      : sendError(reply, {
          status: 404,
          body: {
            code: 'HTTP_NOT_FOUND',
            message: `no route ${request.method} ${request.url.split('?')[0] ?? ''}`,
            details: {},
          },
        }),
  );

  app.addHook('onRequest', (request, _reply, done) => {
    const token = request.cookies[SESSION_COOKIE];
    request.sessionToken = token;
    request.session = state.sessions.get(token);
    done();
  });

  for (const def of routes) {
    app.route({
      method: def.method,
      url: def.url,
      schema: {
        ...fastifySchema(def),
        ...(def.access === 'public' ? {} : { security: [{ session: [] }] }),
      },
      preHandler: (request, _reply, done) => {
        try {
          guard(def, request);
          done();
        } catch (e) {
          done(e as Error);
        }
      },
      handler: async (request, reply) => {
        const session = request.session;
        const ctx: RequestContext | null =
          session === undefined
            ? null
            : { actor: session.account, role: session.role, clock, newId: opts.archive.newId };
        const run = () =>
          def.handler({
            params: request.params,
            query: request.query,
            body: request.body,
            ctx,
            archive: ctx === null ? opts.archive : archiveFor(opts.archive, ctx),
            request,
            reply,
          });
        const out = def.writes === true ? await state.serialWrite(run) : await run();
        return out;
      },
    });
  }
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
  await app.ready();
  return app;
}

/** Signed in, holding the route's permission, and for state-changing requests the CSRF token. */
function guard(def: RouteDef, request: FastifyRequest): void {
  if (def.access === 'public') return;
  const session = request.session;
  if (session === undefined) throw new HttpError('HTTP_UNAUTHENTICATED', 'sign in first');
  if (def.method !== 'GET' && !csrfMatches(session, request.headers[CSRF_HEADER]))
    throw new HttpError(
      'HTTP_CSRF',
      `a state-changing request carries the session's CSRF token in the ${CSRF_HEADER} header`,
    );
  if (def.access !== 'signed-in' && !can(session.role, def.access.permission))
    throw new HttpError('HTTP_FORBIDDEN', `the ${session.role} role may not do this`, {
      details: { role: session.role, permission: def.access.permission },
    });
}

function toErrorBody(
  error: FastifyError | Error,
  request: FastifyRequest,
): { status: number; body: ErrorBody } {
  if (error instanceof CustodyError) {
    const ce = error as CustodyError;
    return {
      status: httpStatusFor(ce),
      body: { code: ce.code, message: ce.message, details: { ...ce.details } },
    };
  }
  const fe = error as FastifyError;
  if (fe.validation !== undefined) {
    return {
      status: 400,
      body: {
        code: 'HTTP_BAD_REQUEST',
        message: `invalid ${fe.validationContext ?? 'request'}: ${fe.message}`,
        details: { where: fe.validationContext ?? null },
      },
    };
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        body: {
          code: 'HTTP_PAYLOAD_TOO_LARGE',
          message: `a request body is at most ${BODY_LIMIT} bytes`,
          details: {},
        },
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        body: {
          code: 'HTTP_UNSUPPORTED_MEDIA_TYPE',
          message: 'send application/json',
          details: {},
        },
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return {
        status: 400,
        body: { code: 'HTTP_BAD_REQUEST', message: 'the body is not valid JSON', details: {} },
      };
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return {
      status: fe.statusCode,
      body: { code: 'HTTP_BAD_REQUEST', message: fe.message, details: {} },
    };
  }
  // Never a stack or SQL in the body: the log keeps the detail for the operator.
  request.log.error({ err: error }, 'internal error');
  return {
    status: 500,
    body: { code: 'HTTP_INTERNAL', message: 'internal error (see the server log)', details: {} },
  };
}

function sendError(
  reply: FastifyReply,
  { status, body }: { status: number; body: ErrorBody },
): FastifyReply {
  if (!isErrorCode(body.code)) body.code = 'HTTP_INTERNAL';
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

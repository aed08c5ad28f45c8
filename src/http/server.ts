import type { BagFiles } from '../reports/export/identification-bag.service.js';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { hkdfSync, randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { accountsPorts, blindPorts, type Archive } from '../app.js';
import { can } from '../accounts/index.js';
import { CustodyError } from '../core/index.js';
import { isErrorCode } from '../error-codes.js';
import { httpStatusFor } from './error-status.js';
import { HttpError, type ErrorBody } from './errors.js';
import { archiveFor, type RequestContext } from './request-context.js';
import { fastifySchema, type RouteDef, type RouteInfo } from './routes/route.js';
import { ALL_ROUTES } from './routes/index.js';
import { archiveLayout } from '../archive/index.js';
import type { EntryDraft } from '../ledger/index.js';
import type { StoredEntry } from '../ledger/ledger.service.js';
import { GroupCommit, SERVER_GATHER } from './group-commit.js';
import { SHARED_SCHEMA_COMPILERS } from './schema-compilers.js';
import { VerificationRuns } from './verification-runs.js';
import { ExportsArea } from './exports-area.js';
import { SecurityLog } from './security/security-log.adapter.js';
import {
  DEFAULT_SIGN_IN_LIMITS,
  SignInGuard,
  type SignInLimits,
} from './security/sign-in-guard.js';
import { AccountDirectory } from './session/account-directory.js';
import { defaultUiDir, registerWebUi } from './web-ui.js';
import { endConnectionsWhenStopping } from './stopping.js';
import { csrfMatches, SessionStore, type Session } from './session/session-store.js';

export const SESSION_COOKIE = 'custody_session';
export const CSRF_HEADER = 'x-csrf-token';
const IDLE_TIMEOUT_MS = 30 * 60 * 1000;
const BODY_LIMIT = 1024 * 1024;
/** Every response: nothing loads, nothing frames it (the API answers JSON and evidence bytes). */
const API_CSP = {
  'default-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
};
/** The readable docs (/api/docs) only: their own bundled script, styles and images, nothing fetched elsewhere. */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

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
  /** Lockout and rate limits of sign-in (tests lower them). */
  signIn?: Partial<SignInLimits>;
  /** The security log's size before it rotates (default 1 MiB). */
  securityLogBytes?: number;
  /**
   * The exports area: where exports (ZIP bags with their receipts) and reports are written, by
   * job id. Outside the archive folder (an export inside it is refused); `ARCHIVE.exports` beside
   * the archive folder by default.
   */
  exportsDir?: string;
  /** Chromium, for reports asked for as PDF (HTML is written when it is missing). */
  chromium?: string;
  /** The bag files of the identification export jobs (reports/export/bag-files.adapter.ts by default; tests wrap it). */
  bagFiles?: (archiveDir: string) => BagFiles;
  /**
   * Tests only: the export, report and identification export jobs each wait on it after they are
   * started (the 202) and before their work begins, so that a test can change the archive in
   * between deterministically.
   */
  jobGate?: (job: { id: string; kind: string }) => Promise<void>;
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
  /**
   * Appends drafts together with those of concurrent requests (group commit, in the write
   * queue); resolves with this request's entries once the batch is durable.
   */
  groupCommit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]>;
  readonly signIn: SignInGuard;
  readonly securityLog: SecurityLog;
  /**
   * Writes the hourly counts of failed sign-ins whose hour has ended (all of them with `all`),
   * through the write queue; `inQueue` when the caller already runs in it (the sign-in route).
   */
  flushFailureCounts(all?: boolean, inQueue?: boolean): Promise<void>;
  /** Verification runs started from the API (one at a time), and past ones from the ledger. */
  readonly verifications: VerificationRuns;
  /** Export and report jobs (one of each at a time) and the files of the exports area. */
  readonly exportsArea: ExportsArea;
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
    schemaController: { compilersFactory: SHARED_SCHEMA_COMPILERS },
  }).withTypeProvider<TypeBoxTypeProvider>();

  let queue: Promise<unknown> = Promise.resolve();
  const routes = [...ALL_ROUTES, ...(opts.routes ?? [])];
  const limits: SignInLimits = { ...DEFAULT_SIGN_IN_LIMITS, ...opts.signIn };
  const securityLog = new SecurityLog(
    archiveLayout(opts.archive.config.archiveDir).logs,
    opts.securityLogBytes,
  );
  const signInGuard = new SignInGuard(
    securityLogKey(opts.archive),
    limits,
    () => clock().getTime(),
    securityLog,
  );
  const serialWrite = <T>(f: () => Promise<T>): Promise<T> => {
    const run = queue.then(f, f);
    queue = run.catch(() => undefined);
    return run;
  };
  const group = new GroupCommit((drafts) => serialWrite(() => opts.archive.commit(drafts)), 1000, SERVER_GATHER);
  const state: ServerState = {
    archive: opts.archive,
    sessions: new SessionStore(opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS, () => clock().getTime()),
    accounts: new AccountDirectory(() => accountsPorts(opts.archive)),
    clock,
    routes: routes.map((r) => ({ method: r.method, url: r.url, access: r.access, blind: r.blind })),
    secureCookies: opts.secureCookies === true,
    serialWrite,
    groupCommit: (drafts) => group.commit(drafts),
    verifications: new VerificationRuns({
      archive: opts.archive,
      serialWrite,
      commit: (drafts) => group.commit(drafts),
      clock,
      newId: opts.archive.newId,
      log: (e) => app.log.error({ err: e }, 'verification run'),
    }),
    exportsArea: new ExportsArea({
      archive: opts.archive,
      dir: opts.exportsDir ?? `${resolve(opts.archive.config.archiveDir)}.exports`,
      serialWrite,
      commit: (drafts) => group.commit(drafts),
      clock,
      newId: opts.archive.newId,
      ...(opts.chromium === undefined ? {} : { chromium: opts.chromium }),
      ...(opts.bagFiles === undefined ? {} : { bagFiles: opts.bagFiles }),
      ...(opts.jobGate === undefined ? {} : { jobGate: opts.jobGate }),
      log: (e) => app.log.error({ err: e }, 'export or report job'),
    }),
    signIn: signInGuard,
    securityLog,
    async flushFailureCounts(all = false, inQueue = false) {
      const counts = signInGuard.takeCounts(all);
      if (counts.length === 0) return;
      const queued = <T>(f: () => Promise<T>): Promise<T> => (inQueue ? f() : serialWrite(f));
      try {
        await queued(() =>
          opts.archive.commit(
            counts.map((c) => ({
              actor: opts.archive.config.actor,
              type: 'cataloguing' as const,
              items: [],
              objects: [],
              details: {
                action: 'account.sign-in-failures',
                account: c.account,
                hour: c.hour,
                count: c.count,
              },
            })),
          ),
        );
      } catch (e) {
        signInGuard.restoreCounts(counts);
        throw e;
      }
    },
  };
  // JSON only: a body of any other type is refused (415), never parsed as text.
  app.removeContentTypeParser(['text/plain']);
  app.decorate('custody', state);
  app.decorateRequest('session', undefined);
  app.decorateRequest('sessionToken', undefined);

  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: API_CSP },
    // HSTS only where TLS is (it would pin plain-HTTP loopback use otherwise).
    strictTransportSecurity: opts.secureCookies === true,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, ctx) =>
      new HttpError('HTTP_RATE_LIMITED', `too many requests: try again in ${ctx.after}`, {
        details: { retry_after_s: Math.ceil(ctx.ttl / 1000) },
      }),
  });
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

  app.addHook('onRequest', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    request.sessionToken = token;
    const session = state.sessions.get(token);
    // The account may have been disabled or given another role since sign-in: its sessions end.
    if (session !== undefined) {
      const row = await opts.archive.index.getAccount(session.account);
      if (row === undefined || row.disabled_seq !== null || row.role !== session.role) {
        state.sessions.endAll(session.account);
        state.accounts.invalidate();
        request.session = undefined;
        return;
      }
    }
    request.session = session;
  });
  // Failed sign-ins of an hour that has ended become their count entry, checked each minute.
  const countsTimer = setInterval(() => {
    state
      .flushFailureCounts()
      .catch((e: unknown) => app.log.error({ err: e }, 'sign-in failure counts'));
  }, 60_000);
  countsTimer.unref();
  endConnectionsWhenStopping(app);
  app.addHook('onClose', async () => {
    clearInterval(countsTimer);
    await state.verifications.settled(); // a run in progress ends (and is recorded) before the writer closes
    await state.exportsArea.settled(); // likewise an export (its dissemination entry) or a report
    await state.flushFailureCounts(true);
    // The ExifTool process of /api/items/:id/exif, if one was started.
    await (await import('../analysis/metadata/index.js')).closeExifTool();
  });

  for (const def of routes) {
    app.route({
      method: def.method,
      url: def.url,
      schema: {
        ...fastifySchema(def),
        ...(def.access === 'public' ? {} : { security: [{ session: [] }] }),
      },
      // A public state-changing route (sign-in) is limited per IP address.
      ...(def.access === 'public' && def.method !== 'GET'
        ? { config: { rateLimit: { max: limits.perIpPerMinute, timeWindow: 60_000 } } }
        : {}),
      // Before the body is read: an unauthenticated or refused request is never parsed.
      onRequest: (request, _reply, done) => {
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
        if (ctx !== null) await guardBlindness(def, ctx, opts.archive, request.params);
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
  // Readable docs, from swagger-ui's bundled assets: nothing fetched from elsewhere.
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: DOCS_CSP,
    uiConfig: { validatorUrl: null, deepLinking: false },
  });
  await app.ready();
  return app;
}

/** The key of the security log's name MACs: derived from the archive's sealing key, else random per run. */
function securityLogKey(archive: Archive): Buffer {
  if (archive.sealingKey === null) return randomBytes(32);
  return Buffer.from(
    hkdfSync(
      'sha256',
      archive.sealingKey,
      Buffer.from(archive.manifest.id, 'utf8'),
      'custody security log v1',
      32,
    ),
  );
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
  const retry = body.details.retry_after_s;
  if (body.code === 'HTTP_RATE_LIMITED' && typeof retry === 'number')
    void reply.header('retry-after', String(retry));
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Blindness at the door of each route (issue 12): only examiners and adjudicators can hold
 * assignments, so only their requests pay for the look-up; the examination service decides.
 */
async function guardBlindness(
  def: RouteDef,
  ctx: RequestContext,
  archive: Archive,
  params: unknown,
): Promise<void> {
  if (def.blind === 'none' || (ctx.role !== 'examiner' && ctx.role !== 'adjudicator')) return;
  const { blindScope, assertNotBlinded, assertMayReadItem } =
    await import('../examination/blind/index.js');
  const scope = await blindScope(blindPorts(archive), ctx.actor);
  if (def.blind === 'refused') assertNotBlinded(scope, `${def.method} ${def.url}`);
  else assertMayReadItem(scope, (params as { id?: string }).id ?? '');
}

import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import Koa, { type Context, type Middleware, type Next } from 'koa';
import type { AccessLog, RateLimitStore } from '@fundi/application';
import { DomainError, isDomainError, type TenantLimits } from '@fundi/domain';
import type { Logger } from 'pino';
import type { ApiForm } from './forms/form.js';
import { dispatcher } from './dispatch.js';
import { SPECIAL_CODES, UNAVAILABLE_RETRY_AFTER_S } from './forms/error-table.js';
import type { ActorExpander } from './mount.js';
import { bearer, unauthorized, type Authenticator } from './middleware/auth.js';
import { applyRateLimit } from './middleware/rate-limit.js';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS, isRequestTimeout } from './middleware/body-progress.js';
import type { RouteDef } from './routes/route.js';
import { buildOpenApi } from './openapi/generate.js';
import { RouteTable } from './route-table.js';

/** Many refused API keys presented from one client address (`onRefusedKeys`). */
export interface RefusedKeys {
  ip: string;
  presented: string;
  path: string;
  count: number;
}

export interface HttpDeps {
  routes: readonly RouteDef[];
  forms: { a: ApiForm; b: ApiForm };
  authenticator: Authenticator;
  rateLimits: RateLimitStore;
  /** Counts each authenticated request for its key's usage (docs/api.md, "Usage"). */
  meter?: { count(tenantId: string, keyId: string, nowMs: number): void };
  /** Limits for requests without a valid key, counted per client address. */
  anonymousLimits: Pick<TenantLimits, 'perMinute' | 'perDay'>;
  /** Limits for the `inbound` routes' calls (other systems with their own secret), per client address. */
  inboundLimits?: Pick<TenantLimits, 'perMinute' | 'perDay'>;
  logger: Logger;
  /** One line per request; fields are fixed and free of personal data. */
  accessLog: AccessLog;
  /** Resolves when the database answers; used by `GET /ready`. */
  ready(): Promise<void>;
  /**
   * True once the process is shutting down (`HttpDrain`): `GET /ready` answers 503 and every answer closes its
   * connection (docs/architecture.md, "Shutdown").
   */
  draining?(): boolean;
  /** A request body that sends nothing for this long is answered 408 (default `DEFAULT_BODY_IDLE_TIMEOUT_MS`). */
  bodyIdleTimeoutMs?: number;
  /** Trust `X-Forwarded-For` (behind a proxy). */
  trustProxy?: boolean;
  now?: () => number;
  /** Shows actor ids as `{type, id, name}` on `actors: true` routes (docs/api.md, "Who did it"). */
  actors?: ActorExpander;
  /** Adds to the OpenAPI document (for example its `webhooks` section). */
  openApiExtend?: Parameters<typeof buildOpenApi>[2];
  /**
   * Served before the API, in order (the web dashboard at `/dashboard`, the learner portal at `/learn`); each
   * answers its own paths and errors.
   */
  pages?: Middleware | readonly Middleware[];
  /**
   * Called once when one client address has presented `REFUSED_KEY_ALERT` refused API keys within 10 minutes
   * (the security alert of docs/api.md, "Notifications"). Never delays or changes the answer.
   */
  onRefusedKeys?(r: RefusedKeys): Promise<void>;
}

/** Refused API keys from one address within `REFUSED_KEY_WINDOW_S` that raise a security alert (once per window). */
export const REFUSED_KEY_ALERT = 20;
const REFUSED_KEY_WINDOW_S = 600;

const REQUEST_ID = /^[\w.:-]{1,64}$/;
const API = /^\/(api\/)?v1(\/|$)/;

type Step = (ctx: Context, next: Next) => Promise<unknown>;

/**
 * Request id, error envelopes and the access log. Domain errors are written in the envelope of the form the path
 * belongs to (an unreachable database, 503, is logged with its cause and answered with `Retry-After`); anything else
 * is logged and answered 500 without detail. The answer is the connection's last while the server drains, and
 * after a body that stalled (what the client still sends of it is not waited for).
 */
function requestContext(deps: HttpDeps): Step {
  return async (ctx, next) => {
    const started = performance.now();
    const incoming = ctx.req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.res.setHeader('X-Request-Id', requestId);
    try {
      await next();
    } catch (e) {
      const form = deps.forms.b.ownsPath(ctx.path) ? deps.forms.b : deps.forms.a;
      if (isDomainError(e)) {
        const answer = form.error(e);
        ctx.status = answer.status;
        ctx.body = answer.body;
        if (isRequestTimeout(e)) ctx.set('Connection', 'close');
        if (e.kind === 'unavailable') {
          ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S));
          deps.logger.warn({ requestId, code: e.code, err: e.cause }, 'storage unavailable');
        }
      } else {
        deps.logger.error({ requestId, err: e }, 'unhandled error');
        ctx.status = 500;
        ctx.body = form.internalError();
      }
    } finally {
      if (deps.draining?.() && !ctx.headerSent) ctx.set('Connection', 'close');
      // Path only: query strings may carry search terms (names, ID numbers) that must not reach the logs.
      deps.accessLog.request({
        requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
        key: (ctx.state.principal as { actor?: { id: string } } | undefined)?.actor?.id,
      });
    }
  };
}

/** `GET /health` (the process answers) and `GET /ready` (the database answers): no key, no rate limit. */
function systemRoutes(deps: HttpDeps): Step {
  const system = new RouteTable();
  system.add('get', '/health', async (ctx) => {
    ctx.body = { status: 'ok' };
  });
  system.add('get', '/ready', async (ctx) => {
    if (deps.draining?.()) {
      ctx.status = 503;
      ctx.body = { status: 'unavailable', reason: 'shutting down' };
      return;
    }
    try {
      await deps.ready();
      ctx.body = { status: 'ready' };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'unavailable', reason: 'database unreachable' };
    }
  });
  return async (ctx, next) => {
    const found = system.find(ctx.method, ctx.path);
    return found ? found.handler(ctx) : next();
  };
}

/**
 * Resolves a presented API key to a principal (left absent when missing or invalid: each route decides, so
 * signed-URL routes work without one) and counts the request against the key's limits, or the client address's.
 */
function authenticateAndLimit(deps: HttpDeps): (ctx: Context) => Promise<void> {
  const now = deps.now ?? Date.now;
  const inbound = [...new Set(deps.routes.filter((r) => r.inbound).map((r) => r.path))];
  return async (ctx) => {
    const api = API.test(ctx.path);
    const presented = api ? bearer(ctx.get('authorization') || undefined) : null;
    if (presented) {
      try {
        ctx.state.principal = await deps.authenticator.execute(presented);
      } catch (e) {
        if (!isDomainError(e) || e.kind !== 'unauthorized') throw e;
        if (deps.onRefusedKeys) watchRefusals(deps, ctx.ip, presented, ctx.path, now());
      }
    }
    const principal = ctx.state.principal as
      | { actor: { id: string; tenantId: string }; limits: TenantLimits }
      | undefined;
    const at = now();
    const isInbound = !principal && inbound.length > 0 && inbound.some((p) => ctx.path.endsWith(p));
    await applyRateLimit(
      ctx,
      deps.rateLimits,
      principal ? `key:${principal.actor.id}` : isInbound ? `inbound:${ctx.ip}` : `ip:${ctx.ip}`,
      principal?.limits ?? (isInbound ? (deps.inboundLimits ?? deps.anonymousLimits) : deps.anonymousLimits),
      at,
    );
    if (principal) deps.meter?.count(principal.actor.tenantId, principal.actor.id, at);
  };
}

/** Counts a refused key against its address; the threshold-th refusal in a window is reported, in the background. */
function watchRefusals(deps: HttpDeps, ip: string, presented: string, path: string, at: number): void {
  void deps.rateLimits
    .hit(`refused-key:${ip}`, [{ seconds: REFUSED_KEY_WINDOW_S, limit: REFUSED_KEY_ALERT }], at)
    .then(([w]) =>
      w && w.hits === REFUSED_KEY_ALERT ? deps.onRefusedKeys!({ ip, presented, path, count: w.hits }) : undefined,
    )
    .catch((e: unknown) => deps.logger.warn({ err: e }, 'could not count a refused API key'));
}

/** Nothing matched: without a valid key that is 401 under the API (it reveals no route), otherwise 404. */
async function notFound(ctx: Context): Promise<never> {
  if (API.test(ctx.path) && !ctx.state.principal) throw unauthorized();
  throw new DomainError('not_found', 'route_not_found', `No route for ${ctx.method} ${ctx.path}`);
}

/**
 * Everything after the system routes and the pages, as one step: the key and the rate limit, then the OpenAPI
 * document (built once, at both forms' roots; it needs no key), then the routes, then 404. As one step they cost each
 * request one turn through the middleware chain, where four steps would cost four.
 */
function api(deps: HttpDeps): Step {
  const limit = authenticateAndLimit(deps);
  const openapi = JSON.stringify(buildOpenApi(deps.routes, deps.forms, deps.openApiExtend));
  const dispatch = dispatcher(deps.forms, deps.routes, deps.actors, {
    idleMs: deps.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS,
  });
  return async (ctx) => {
    await limit(ctx);
    const path = ctx.path;
    if (path === '/v1/openapi.json' || path === '/api/v1/openapi.json') {
      ctx.type = 'application/json';
      ctx.body = openapi;
      return;
    }
    return dispatch(ctx, notFound);
  };
}

export function createHttpApp(deps: HttpDeps): Koa {
  const app = new Koa({ proxy: deps.trustProxy ?? false });
  app.use(requestContext(deps));
  app.use(systemRoutes(deps));
  for (const p of [deps.pages ?? []].flat()) app.use(p);
  app.use(api(deps));
  return app;
}

/** A request line whose path is Form B's (`/api/v1/tenants/{slug}/...` or `/v1/tenants/{slug}/...`). */
const FORM_B_REQUEST_LINE = /^[A-Z]+ \/(?:api\/)?v1\/tenants\/[^/?\s]+(?:[/?\s]|$)/;

/**
 * Answers what Node refuses before Koa sees a request (headers over its 16 KB limit, malformed requests) and what
 * it cuts short (a request not received within the server's `headersTimeout` or `requestTimeout`) in the error
 * envelope of the form the request's path names (Form A unless it is a Form B path), instead of a bare status
 * line. A connection whose answer has begun is closed without one. Attach to every server that serves the app.
 */
export function answerClientErrors(server: Server): void {
  // Each connection's request under way: a timeout reports no raw packet, and may come after an answer began.
  const current = new WeakMap<object, ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => current.set(req.socket, res));
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    // A finished answer belongs to the connection's previous request, not to the one that failed.
    const res = current.get(socket)?.writableFinished === false ? current.get(socket) : undefined;
    if (!socket.writable || res?.headersSent) return void socket.destroy();
    const [codes, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [SPECIAL_CODES.headers_too_large!, 'The request headers exceed 16 KB']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [SPECIAL_CODES.request_timeout!, 'The request did not arrive in time']
          : [SPECIAL_CODES.bad_request!, 'The request is not valid HTTP'];
    const { status } = codes;
    const line = err.rawPacket?.subarray(0, 512).toString('latin1') ?? (res ? `${res.req.method} ${res.req.url}` : '');
    const body = JSON.stringify(
      FORM_B_REQUEST_LINE.test(line)
        ? { error: { code: codes.B, message, details: {} } }
        : { error: { code: codes.A, message, details: [] } },
    );
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

import { randomUUID } from 'node:crypto';
import Koa, { type Context, type Next } from 'koa';
import { DomainError, isDomainError } from '@fundi/domain';
import { dispatcher } from './dispatch.js';
import { UNAVAILABLE_RETRY_AFTER_S } from './forms/error-table.js';
import type { HttpDeps } from './http-deps.js';
import { unauthorized } from './middleware/auth.js';
import { API, authenticateAndLimit } from './middleware/key-and-limit.js';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS, isRequestTimeout } from './middleware/body-progress.js';
import { buildOpenApi } from './openapi/generate.js';
import { RouteTable } from './route-table.js';

const REQUEST_ID = /^[\w.:-]{1,64}$/;

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
  // Not async: a request for another path passes on with no promise of this step's own.
  return (ctx, next) => {
    const found = system.find(ctx.method, ctx.path);
    return found ? found.handler(ctx) : next();
  };
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

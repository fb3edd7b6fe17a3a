import { randomUUID } from 'node:crypto';
import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import type { RateLimitStore } from '@fundi/application';
import { DomainError, isDomainError, type TenantLimits } from '@fundi/domain';
import type { Logger } from 'pino';
import type { ApiForm } from './forms/form.js';
import { INTERNAL } from './forms/error-table.js';
import { dispatcher } from './dispatch.js';
import { bearer, type Authenticator } from './middleware/auth.js';
import { applyRateLimit } from './middleware/rate-limit.js';
import type { RouteDef } from './routes/route.js';
import { buildOpenApi } from './openapi/generate.js';

export interface HttpDeps {
  routes: readonly RouteDef[];
  forms: { a: ApiForm; b: ApiForm };
  authenticator: Authenticator;
  rateLimits: RateLimitStore;
  /** Limits for requests without a valid key, counted per client address (D2). */
  anonymousLimits: Pick<TenantLimits, 'perMinute' | 'perDay'>;
  logger: Logger;
  /** One line per request; fields are fixed and free of personal data. */
  accessLog: Logger;
  /** Resolves when the database answers; used by `GET /ready`. */
  ready(): Promise<void>;
  /** Trust `X-Forwarded-For` (behind a proxy). */
  trustProxy?: boolean;
  now?: () => number;
  /** Adds to the OpenAPI document (for example its `webhooks` section). */
  openApiExtend?: Parameters<typeof buildOpenApi>[2];
}

const REQUEST_ID = /^[\w.:-]{1,64}$/;
const API = /^\/(api\/)?v1(\/|$)/;
const isFormB = (path: string) => path.startsWith('/api/v1/tenants/') || path.startsWith('/v1/');

export function createHttpApp(deps: HttpDeps): Koa {
  const app = new Koa({ proxy: deps.trustProxy ?? false });
  const now = deps.now ?? Date.now;
  const openapi = JSON.stringify(buildOpenApi(deps.routes, deps.forms, deps.openApiExtend));

  app.use(async (ctx: Context, next: Next) => {
    const started = performance.now();
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } catch (e) {
      const form = isFormB(ctx.path) ? deps.forms.b : deps.forms.a;
      const error = isDomainError(e) ? e : null;
      if (error) {
        const answer = form.error(error);
        ctx.status = answer.status;
        ctx.body = answer.body;
      } else {
        deps.logger.error({ requestId, err: e }, 'unhandled error');
        ctx.status = 500;
        ctx.body = { error: form.name === 'A'
          ? { code: INTERNAL.A, message: 'Internal error', details: [] }
          : { code: INTERNAL.B, message: 'Internal error', details: {} } };
      }
    } finally {
      // Path only: query strings may carry search terms (names, ID numbers) that must not reach the logs.
      deps.accessLog.info({ requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 100) / 100, key: (ctx.state.principal as { actor?: { id: string } } | undefined)?.actor?.id }, 'request');
    }
  });

  const system = new Router();
  system.get('/health', (ctx) => { ctx.body = { status: 'ok' }; });
  system.get('/ready', async (ctx) => {
    try {
      await deps.ready();
      ctx.body = { status: 'ready' };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'unavailable', reason: 'database unreachable' };
    }
  });
  app.use(system.routes());

  app.use(async (ctx: Context, next: Next) => {
    const api = API.test(ctx.path);
    const presented = api ? bearer(ctx.get('authorization') || undefined) : null;
    if (presented) {
      try {
        ctx.state.principal = await deps.authenticator.execute(presented);
      } catch (e) {
        if (!isDomainError(e) || e.kind !== 'unauthorized') throw e;
      }
    }
    const principal = ctx.state.principal as { actor: { id: string }; limits: TenantLimits } | undefined;
    await applyRateLimit(ctx, deps.rateLimits, principal ? `key:${principal.actor.id}` : `ip:${ctx.ip}`,
      principal?.limits ?? deps.anonymousLimits, now());
    if (!api) return next();
    if (ctx.path === '/v1/openapi.json' || ctx.path === '/api/v1/openapi.json') {
      ctx.type = 'application/json';
      ctx.body = openapi;
      return;
    }
    if (!principal) throw new DomainError('unauthorized', 'unauthorized', 'A valid API key is required: Authorization: Bearer <key>');
    return next();
  });

  app.use(dispatcher(deps.forms, deps.routes));

  app.use(async (ctx: Context) => {
    throw new DomainError('not_found', 'route_not_found', `No route for ${ctx.method} ${ctx.path}`);
  });
  return app;
}

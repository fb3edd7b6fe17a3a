import type { Principal } from '@fundi/application';
import { DomainError, type PageRequest, type Scope } from '@fundi/domain';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from './schemas/common.js';
import type { ApiForm } from './forms/form.js';
import type { RouteDef } from './routes/route.js';
import { readJson } from './middleware/json-body.js';
import { validate } from './middleware/validate.js';
import { unauthorized } from './middleware/auth.js';

export function koaPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

export function hasScope(granted: readonly Scope[], needed: Scope): boolean {
  return granted.includes(needed);
}

/** The request's principal; set by the auth middleware, absent when no valid key was presented. */
export function principalOf(ctx: Context): Principal {
  const p = ctx.state.principal as Principal | undefined;
  if (!p) throw unauthorized();
  return p;
}

/**
 * Mounts every route under every prefix of `form`. The same handler serves both forms; only the form's paging,
 * envelope and tenant check differ. Schemas are composed once here, not per request.
 */
export function mountForm(router: Router, form: ApiForm, routes: readonly RouteDef[]): void {
  for (const r of routes) {
    const querySchema = (r.list ? (r.query ?? z.object({})).extend(form.pageQuery.shape) : (r.query ?? z.object({}))).strict();
    const handler = async (ctx: Context) => {
      const principal = principalOf(ctx);
      if (ctx.params.slug !== undefined && ctx.params.slug !== principal.tenant.slug) {
        throw DomainError.forbidden('This API key belongs to another tenant');
      }
      if (!hasScope(principal.actor.scopes, r.scope)) {
        throw DomainError.forbidden(`This API key lacks the scope ${r.scope}`);
      }
      const { slug: _slug, ...rawParams } = ctx.params as Record<string, string>;
      const params = r.params ? validate(r.params, rawParams, 'path') : undefined;
      const query = validate(querySchema, ctx.query, 'query') as Record<string, unknown>;
      const body = r.body ? validate(r.body, await readJson(ctx), 'body') : undefined;
      const page: PageRequest = r.list ? form.toPage(query) : { kind: 'offset', offset: 0, limit: 0 };
      const result = await r.handle({ actor: principal.actor, params, query, body, page, requestId: ctx.state.requestId as string });
      ctx.status = r.success.status;
      if (r.list) ctx.body = form.envelope(result as never, page);
      else if (r.success.status !== 204) ctx.body = result;
    };
    for (const prefix of form.prefixes) router[r.method](`${prefix}${koaPath(r.path)}`, handler);
  }
}

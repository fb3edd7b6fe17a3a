import type { Context } from 'koa';
import type { ApiForm } from './forms/form.js';
import type { RouteDef } from './routes/route.js';
import { DomainError } from '@fundi/domain';
import { mountForm, type ActorExpander, type BodyLimits } from './mount.js';
import { unauthorized } from './middleware/auth.js';
import { RouteTable } from './route-table.js';

/**
 * Routes every request to a small table holding only the routes of its form and resource. One table with every
 * route of both forms would test each request against hundreds of path patterns; grouped, a request meets a
 * handful. A known path with another method is 405 naming the methods it has (after the key check, like any
 * route); an unknown one goes to `miss`.
 */
export function dispatcher(
  forms: { a: ApiForm; b: ApiForm },
  routes: readonly RouteDef[],
  actors?: ActorExpander,
  bodies?: BodyLimits,
): (ctx: Context, miss: (ctx: Context) => Promise<unknown>) => Promise<unknown> {
  // Per form, its tables by resource: found with the request's resource as it is, no key string made per request.
  const groups = new Map<ApiForm, Map<string, RouteTable>>([
    [forms.a, new Map()],
    [forms.b, new Map()],
  ]);
  // Form B's prefixes are longer and more specific (`/api/v1/tenants/...`), so it is asked first.
  const order = [forms.b, forms.a];
  for (const form of [forms.a, forms.b]) {
    const byResource = new Map<string, RouteDef[]>();
    for (const r of routes) {
      const resource = r.path.split('/')[1]!;
      byResource.set(resource, [...(byResource.get(resource) ?? []), r]);
    }
    for (const [resource, list] of byResource) {
      const table = new RouteTable();
      mountForm(table, form, list, actors, bodies);
      groups.get(form)!.set(resource, table);
    }
  }
  return async (ctx, miss) => {
    const path = ctx.path;
    for (const form of order) {
      const resource = form.resourceOf(path);
      if (resource === null) continue;
      const table = groups.get(form)!.get(resource);
      if (!table) return miss(ctx);
      const found = table.find(ctx.method, path);
      if (found) {
        ctx.params = found.params;
        return found.handler(ctx);
      }
      const allowed = table.allowed(path);
      if (allowed.length === 0) return miss(ctx);
      if (!ctx.state.principal) throw unauthorized();
      ctx.set('Allow', allowed.join(', '));
      throw new DomainError(
        'not_found',
        'method_not_allowed',
        `${ctx.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`,
      );
    }
    return miss(ctx);
  };
}

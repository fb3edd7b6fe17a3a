import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { ApiForm } from './forms/form.js';
import type { RouteDef } from './routes/route.js';
import { DomainError } from '@fundi/domain';
import { mountForm, type ActorExpander } from './mount.js';
import { unauthorized } from './middleware/auth.js';

/**
 * Routes every request to a small router holding only the routes of its form and resource. One router with
 * every route of both forms tests each request against hundreds of path patterns (koa-router matches them one
 * by one); grouped, a request meets a handful.
 */
export function dispatcher(
  forms: { a: ApiForm; b: ApiForm },
  routes: readonly RouteDef[],
  actors?: ActorExpander,
): Middleware {
  const groups = new Map<string, { routes: Middleware; allowed: (path: string) => string[] }>();
  // Form B's prefixes are longer and more specific (`/api/v1/tenants/...`), so it is asked first.
  const order = [forms.b, forms.a];
  for (const form of [forms.a, forms.b]) {
    const byResource = new Map<string, RouteDef[]>();
    for (const r of routes) {
      const resource = r.path.split('/')[1]!;
      byResource.set(resource, [...(byResource.get(resource) ?? []), r]);
    }
    for (const [resource, list] of byResource) {
      const router = new Router();
      mountForm(router, form, list, actors);
      const patterns = form.prefixes.flatMap((prefix) =>
        list.map((r) => ({
          method: r.method.toUpperCase(),
          pattern: new RegExp(`^${prefix.replace(/:\w+/g, '[^/]+')}${r.path.replace(/\{\w+\}/g, '[^/]+')}/?$`),
        })),
      );
      const allowed = (path: string) => {
        const methods = new Set(patterns.filter((p) => p.pattern.test(path)).map((p) => p.method));
        if (methods.has('GET')) methods.add('HEAD');
        return [...methods].sort();
      };
      groups.set(`${form.name}:${resource}`, { routes: router.routes() as unknown as Middleware, allowed });
    }
  }
  return async (ctx: Context, next: Next) => {
    for (const form of order) {
      const resource = form.resourceOf(ctx.path);
      if (resource !== null) {
        const group = groups.get(`${form.name}:${resource}`);
        if (!group) return next();
        return group.routes(ctx, async () => {
          // A known path with another method: 405 naming the methods it has (after the key check, like any route).
          const allowed = group.allowed(ctx.path);
          if (allowed.length === 0) return next();
          if (!ctx.state.principal) throw unauthorized();
          ctx.set('Allow', allowed.join(', '));
          throw new DomainError(
            'not_found',
            'method_not_allowed',
            `${ctx.method} is not allowed on ${ctx.path}; allowed: ${allowed.join(', ')}`,
          );
        });
      }
    }
    return next();
  };
}

import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { ApiForm } from './forms/form.js';
import type { RouteDef } from './routes/route.js';
import { mountForm } from './mount.js';

/**
 * Routes every request to a small router holding only the routes of its form and resource. One router with
 * every route of both forms tests each request against hundreds of path patterns (koa-router matches them one
 * by one); grouped, a request meets a handful.
 */
export function dispatcher(forms: { a: ApiForm; b: ApiForm }, routes: readonly RouteDef[]): Middleware {
  const groups = new Map<string, Middleware>();
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
      mountForm(router, form, list);
      groups.set(`${form.name}:${resource}`, router.routes() as unknown as Middleware);
    }
  }
  return async (ctx: Context, next: Next) => {
    for (const form of order) {
      const resource = form.resourceOf(ctx.path);
      if (resource !== null) {
        const group = groups.get(`${form.name}:${resource}`);
        return group ? group(ctx, next) : next();
      }
    }
    return next();
  };
}

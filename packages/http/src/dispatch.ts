import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { ApiForm } from './forms/form.js';
import type { RouteDef } from './routes/route.js';
import { mountForm } from './mount.js';

/** The first path segment after a form's prefix, which names the resource (`learners`, `programmes`, ...). */
function resourceOf(path: string): { form: 'A' | 'B'; resource: string } | null {
  let rest: string;
  let form: 'A' | 'B';
  if (path.startsWith('/api/v1/tenants/')) [rest, form] = [path.slice(16), 'B'];
  else if (path.startsWith('/v1/tenants/')) [rest, form] = [path.slice(12), 'B'];
  else if (path.startsWith('/api/v1/')) [rest, form] = [path.slice(8), 'A'];
  else return null;
  if (form === 'B') {
    const slash = rest.indexOf('/');
    if (slash < 0) return null;
    rest = rest.slice(slash + 1);
  }
  const end = rest.indexOf('/');
  return { form, resource: end < 0 ? rest : rest.slice(0, end) };
}

/**
 * Routes every request to a small router holding only the routes of its form and resource. One router with
 * every route of both forms tests each request against hundreds of path patterns (koa-router matches them one
 * by one); grouped, a request meets a handful.
 */
export function dispatcher(forms: { a: ApiForm; b: ApiForm }, routes: readonly RouteDef[]): Middleware {
  const groups = new Map<string, Middleware>();
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
    const where = resourceOf(ctx.path);
    const group = where && groups.get(`${where.form}:${where.resource}`);
    return group ? group(ctx, next) : next();
  };
}

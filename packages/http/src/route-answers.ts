import type { Page } from '@fundi/domain';
import type { Context } from 'koa';
import type { RouteDef } from './routes/route.js';

/**
 * `protocol://host` as Koa's `ctx.protocol` and `ctx.host` give it. Without a trusted proxy, and with one plain
 * `Host` header, that is the socket's protocol and the header, read directly: the general getters split and check
 * the header for forwarded and HTTP/2 forms on every request, for the few routes that answer with a URL.
 */
export function originOf(ctx: Context): string {
  const host = ctx.req.headers.host;
  if (ctx.app.proxy || ctx.req.httpVersionMajor >= 2 || !host || host.includes(',') || host.includes('@'))
    return `${ctx.protocol}://${ctx.host}`;
  return `${(ctx.req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${host}`;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A JSON answer, serialised here (by the route's own writer of the same text when it has one) with its type set
 * directly (given an object, Koa looks the type up by name for every answer). The bytes and headers sent are the
 * same.
 */
export function sendJson(ctx: Context, value: unknown, write?: (value: object) => string): void {
  if (value === undefined || value === null) {
    ctx.body = value;
    return;
  }
  ctx.res.setHeader('Content-Type', JSON_TYPE);
  const text = write && typeof value === 'object' ? write(value) : JSON.stringify(value);
  ctx.body = text.length < OFF_HEAP_FROM ? text : Buffer.from(text);
}

/**
 * A JSON answer this long (a list's page) is held as bytes outside V8's heap until it is sent, not as text: held as
 * text it outlives the young generation's collections of the requests served meanwhile and is copied and promoted
 * with them (docs/performance.md, "Writes and lists on Postgres"). The bytes sent are the same.
 */
const OFF_HEAP_FROM = 16 * 1024;

/** A list route's answer: its handler returns a `Page` (the route's `list`); anything else is a programming error. */
export function pageOf(result: unknown, operationId: string): Page<unknown> {
  if (typeof result === 'object' && result !== null && 'items' in result && Array.isArray(result.items))
    return result as Page<unknown>;
  throw new Error(`${operationId}: a list route answered without a page`);
}

/**
 * How a 201's `Location` is made from the request's prefix, its path and the answer. A route that names its place
 * (route.ts, `location`) points there under the prefix; otherwise a `POST` to a collection whose items the route
 * list reads at `<path>/{id}` points at the new item, and a `POST` to a path the list also reads (a singleton) at
 * that path. A route that answers 201 with none of these is refused here, so a new one cannot be served without a
 * `Location`. Null for routes that do not answer 201.
 */
export function locationOf(
  r: RouteDef,
  readable: ReadonlySet<string>,
): ((prefix: string, path: string, result: unknown) => string) | null {
  if (r.success.status !== 201) return null;
  const explicit = r.location as ((result: unknown) => string) | undefined;
  if (explicit) return (prefix, _path, result) => `${prefix}${explicit(result)}`;
  if (readable.has(`${r.path}/{id}`))
    return (_prefix, path, result) => `${trimSlash(path)}/${encodeURIComponent((result as { id: string }).id)}`;
  if (readable.has(r.path)) return (_prefix, path) => trimSlash(path);
  throw new Error(`${r.operationId}: a 201 needs a Location; the route list reads nothing at ${r.path}/{id}`);
}

const trimSlash = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/** The request's form prefix, its parameters (Form B's slug) filled in as the request sent them. */
export function prefixOf(ctx: Context, prefix: string): string {
  return prefix.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(ctx.params[name] ?? ''));
}

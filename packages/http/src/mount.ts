import { actingFrom, type Principal, UploadFields, type WithActors } from '@fundi/application';
import { DomainError, type Page, type PageRequest, type Scope } from '@fundi/domain';
import type { Context } from 'koa';
import { z } from './schemas/common.js';
import type { ApiForm } from './forms/form.js';
import type { FileAnswer, IncomingFile, RouteDef } from './routes/route.js';
import { readJson } from './middleware/json-body.js';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS } from './middleware/body-progress.js';
import { validate } from './middleware/validate.js';
import { unauthorized } from './middleware/auth.js';
import { multipartUpload, rawUpload } from './middleware/upload.js';
import { sendFile } from './middleware/file-answer.js';
import type { RouteTable } from './route-table.js';

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

const NO_BODY = z.object({}).strict();
const PAGING = new Set(['cursor', 'limit', 'offset']);

function pageScope(operation: string, tenantId: string, params: unknown, query: Record<string, unknown>): string {
  const filters = Object.keys(query)
    .filter((k) => !PAGING.has(k) && query[k] !== undefined)
    .sort()
    .map((k) => [k, query[k]]);
  return JSON.stringify([operation, tenantId, params ?? null, filters]);
}
const NO_PAGE: PageRequest = { kind: 'offset', offset: 0, limit: 0 };

/** Form A's cursor carries this field of a list's last item (route.ts, `ListSpec`): a list without it is refused. */
function cursorKeyOf(r: RouteDef): string | undefined {
  if (!r.list) return undefined;
  const key = r.list.cursorKey ?? 'id';
  const item = r.list.item;
  if (item instanceof z.ZodObject && !(key in item.shape))
    throw new Error(`${r.operationId}: the list's items have no field ${key} for Form A's cursor`);
  return r.list.cursorKey;
}

/** Checks the key: present, of the tenant Form B's slug names, holding the route's scope. */
function authorise(ctx: Context, r: RouteDef): Principal {
  const principal = principalOf(ctx);
  if (ctx.params.slug !== undefined && ctx.params.slug !== principal.tenant.slug) {
    throw DomainError.forbidden('This API key belongs to another tenant');
  }
  if (r.scope !== 'any' && !hasScope(principal.actor.scopes, r.scope!)) {
    throw DomainError.forbidden(`This API key lacks the scope ${r.scope}`);
  }
  return principal;
}

/**
 * A multipart upload's text fields (route.ts, `Upload`). Those before the file are checked at once: a bad one is
 * refused before the file is read, with the error the whole body would get; a missing one may still come after the
 * file. Every field is validated together once the body has ended.
 */
function uploadFields(schema: z.ZodType, before: Record<string, string>, later: Promise<Record<string, string>>) {
  try {
    validate(schema instanceof z.ZodObject ? schema.partial() : schema, before, 'body');
  } catch {
    validate(schema, before, 'body');
  }
  const parsed = schema.safeParse(before);
  const whole = parsed.success ? parsed.data : null;
  // Nothing after the file: the early fields are all of them (the same object, so they are not checked again).
  const all = later.then((after) =>
    whole !== null && Object.keys(after).length === 0 ? whole : validate(schema, { ...before, ...after }, 'body'),
  );
  return new UploadFields(whole, all);
}

/**
 * Reads the body the route declares: JSON, multipart fields plus a file stream, or a raw file stream. Each fails
 * with 408 once the client has sent nothing of it for `idleMs`.
 */
async function readBody(
  ctx: Context,
  r: RouteDef,
  idleMs: number,
): Promise<{ body: unknown; file: IncomingFile | undefined }> {
  if (r.upload?.kind === 'raw') return { body: undefined, file: rawUpload(ctx, r.upload, idleMs) };
  if (r.upload?.kind === 'multipart') {
    const { fields, file, later } = await multipartUpload(ctx, r.upload, idleMs);
    try {
      return { body: r.body ? uploadFields(r.body, fields, later) : undefined, file };
    } catch (e) {
      file.stream.destroy();
      throw e;
    }
  }
  if (r.body) return { body: validate(r.body, await readJson(ctx, idleMs), 'body'), file: undefined };
  // A write without a declared body still has its body read, limited and checked: it must be empty or `{}`.
  if (r.method !== 'get' && r.method !== 'delete') validate(NO_BODY, await readJson(ctx, idleMs), 'body');
  return { body: undefined, file: undefined };
}

/**
 * `protocol://host` as Koa's `ctx.protocol` and `ctx.host` give it. Without a trusted proxy, and with one plain
 * `Host` header, that is the socket's protocol and the header, read directly: the general getters split and check
 * the header for forwarded and HTTP/2 forms on every request, for the few routes that answer with a URL.
 */
function originOf(ctx: Context): string {
  const host = ctx.req.headers.host;
  if (ctx.app.proxy || ctx.req.httpVersionMajor >= 2 || !host || host.includes(',') || host.includes('@'))
    return `${ctx.protocol}://${ctx.host}`;
  return `${(ctx.req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${host}`;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A JSON answer, serialised here with its type set directly (given an object, Koa looks the type up by name for
 * every answer). The bytes and headers sent are the same.
 */
function sendJson(ctx: Context, value: unknown): void {
  if (value === undefined || value === null) {
    ctx.body = value;
    return;
  }
  ctx.res.setHeader('Content-Type', JSON_TYPE);
  ctx.body = JSON.stringify(value);
}

/** A list route's answer: its handler returns a `Page` (the route's `list`); anything else is a programming error. */
function pageOf(result: unknown, operationId: string): Page<unknown> {
  if (typeof result === 'object' && result !== null && 'items' in result && Array.isArray(result.items))
    return result as Page<unknown>;
  throw new Error(`${operationId}: a list route answered without a page`);
}

/** Shows the actor ids of an answer as `{type, id, name}` (DescribeActors). */
export interface ActorExpander {
  expand<T>(tenantId: string, value: T): Promise<WithActors<T>>;
}

/** How request bodies are read (docs/api.md, "A request's limits"). */
export interface BodyLimits {
  /** A body that sends nothing for this long is answered 408. */
  idleMs: number;
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
function prefixOf(ctx: Context, prefix: string): string {
  return prefix.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(ctx.params[name] ?? ''));
}

/**
 * Mounts every route under every prefix of `form`. The same handler serves both forms; only the form's paging,
 * envelope and tenant check differ. Schemas are composed once here, not per request.
 */
export function mountForm(
  table: RouteTable,
  form: ApiForm,
  routes: readonly RouteDef[],
  actors?: ActorExpander,
  bodies: BodyLimits = { idleMs: DEFAULT_BODY_IDLE_TIMEOUT_MS },
): void {
  // One function for every request, not a closure per request (the answer of a keyless route learns its tenant late).
  // Without an expander (tests that serve routes alone), an answer keeps its actor ids.
  const expandActors = <T>(tenantId: string, value: T): Promise<WithActors<T>> =>
    actors ? actors.expand(tenantId, value) : Promise.resolve(value as WithActors<T>);
  const readable = new Set(routes.filter((r) => r.method === 'get').map((r) => r.path));
  for (const r of routes) {
    const location = locationOf(r, readable);
    const querySchema = (
      r.list ? (r.query ?? z.object({})).extend(form.pageQuery.shape) : (r.query ?? z.object({}))
    ).strict();
    const isPublic = r.auth === 'none';
    const cursorKey = cursorKeyOf(r);
    const handler = async (ctx: Context, prefix: string) => {
      const principal = isPublic ? null : authorise(ctx, r);
      const { slug, ...rawParams } = ctx.params as Record<string, string>;
      const params = r.params ? validate(r.params, rawParams, 'path') : undefined;
      const query = validate(querySchema, ctx.query, 'query') as Record<string, unknown>;
      const { body, file } = await readBody(ctx, r, bodies.idleMs);
      // What a page belongs to: the tenant (or the public route) and every filter but the paging itself.
      const scope = r.list ? pageScope(r.operationId, principal?.actor.tenantId ?? '', params, query) : '';
      const page: PageRequest = r.list ? form.toPage(query, scope) : NO_PAGE;
      const input = {
        params,
        query,
        body,
        page,
        file,
        ip: ctx.ip,
        origin: originOf(ctx),
        headers: ctx.headers,
        requestId: ctx.state.requestId as string,
        tenantSlug: slug ?? null,
        expandActors,
      };
      let result: Awaited<ReturnType<RouteDef['handle']>>;
      try {
        // The key's changes are audited as coming through the API, with the client's address.
        const actor = principal ? actingFrom(principal.actor, 'api', ctx.ip) : null;
        result = await r.handle(actor ? { ...input, actor } : { ...input, actor: null });
      } finally {
        // A handler that stopped reading (or failed) leaves the rest of the upload unread: discard it.
        if (file && !file.stream.readableEnded) {
          file.stream.destroy();
          // Read and drop what the client still sends, so the connection stays in step and the answer reaches it.
          if (!ctx.req.readableEnded) {
            ctx.req.unpipe();
            ctx.req.resume();
          }
        }
      }
      if ('file' in r.success) return sendFile(ctx, result as FileAnswer);
      if (r.actors && actors && principal) result = await actors.expand(principal.actor.tenantId, result);
      const alt = 'alternate' in r.success ? r.success.alternate : undefined;
      ctx.status = alt?.when(result) ? alt.status : r.success.status;
      if (location) ctx.set('Location', location(prefixOf(ctx, prefix), ctx.path, result));
      if (r.list) sendJson(ctx, form.envelope(pageOf(result, r.operationId), page, scope, cursorKey));
      else if (r.success.status !== 204) sendJson(ctx, result);
    };
    for (const prefix of form.prefixes)
      table.add(r.method, `${prefix}${koaPath(r.path)}`, (ctx: Context) => handler(ctx, prefix));
  }
}

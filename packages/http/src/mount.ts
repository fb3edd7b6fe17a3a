import { type Actor, actingFrom, type WithActors } from '@fundi/application';
import type { PageRequest } from '@fundi/domain';
import type { Context } from 'koa';
import { z } from './schemas/common.js';
import type { ApiForm } from './forms/form.js';
import type { FileAnswer, RouteDef } from './routes/route.js';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS } from './middleware/body-progress.js';
import { validate } from './middleware/validate.js';
import { sendFile } from './middleware/file-answer.js';
import type { RouteTable } from './route-table.js';
import { authorise } from './route-access.js';
import { readBody } from './route-body.js';
import { locationOf, originOf, pageOf, prefixOf, sendJson } from './route-answers.js';

export function koaPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

const PAGING = new Set(['cursor', 'limit', 'offset']);

type Query = Record<string, unknown>;

function pageScope(operation: string, tenantId: string, params: unknown, query: Record<string, unknown>): string {
  const filters = Object.keys(query)
    .filter((k) => !PAGING.has(k) && query[k] !== undefined)
    .sort()
    .map((k) => [k, query[k]]);
  return JSON.stringify([operation, tenantId, params ?? null, filters]);
}
const NO_BODY = { body: undefined, file: undefined } as const;
const NO_PAGE: PageRequest = { kind: 'offset', offset: 0, limit: 0 };

function withoutSlug({ slug: _, ...rest }: Record<string, string>): Record<string, string> {
  return rest;
}

/**
 * The actor of a key's request through the API, with the client's address (`actingFrom`). A key's actor comes from
 * its cached resolution, so the copy made for an address is kept beside it and used again while the address is
 * the same; nothing changes an actor once made.
 */
const apiActors = new WeakMap<Actor, Actor>();
function apiActor(keyActor: Actor, ip: string): Actor {
  const made = apiActors.get(keyActor);
  if (made && made.ip === ip) return made;
  const actor = actingFrom(keyActor, 'api', ip);
  apiActors.set(keyActor, actor);
  return actor;
}

/** Form A's cursor carries this field of a list's last item (route.ts, `ListSpec`): a list without it is refused. */
function cursorKeyOf(r: RouteDef): string | undefined {
  if (!r.list) return undefined;
  const key = r.list.cursorKey ?? 'id';
  const item = r.list.item;
  if (item instanceof z.ZodObject && !(key in item.shape))
    throw new Error(`${r.operationId}: the list's items have no field ${key} for Form A's cursor`);
  return r.list.cursorKey;
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
    // A request without a query string is checked as `{}`; when `{}` passes and stays `{}` (no defaults), that
    // answer is the same for every such request, so it is worked out once, and each request gets its own `{}`.
    let emptyPasses: boolean | undefined;
    const emptyQuery = (): Query => {
      if (emptyPasses) return {};
      const q = validate(querySchema, {}, 'query') as Query;
      emptyPasses = Object.keys(q).length === 0;
      return q;
    };
    // A GET or DELETE declares no body (`readBody` reads none for them): it is not waited for.
    const readsBody = r.upload !== undefined || r.body !== undefined || (r.method !== 'get' && r.method !== 'delete');
    const isPublic = r.auth === 'none';
    const cursorKey = cursorKeyOf(r);
    const handler = async (ctx: Context, prefix: string) => {
      const principal = isPublic ? null : authorise(ctx, r);
      const found = ctx.params as Record<string, string>;
      const slug = found.slug;
      // Form B's slug is the tenant's, checked by `authorise`, not one of the route's parameters.
      const rawParams = slug === undefined ? found : withoutSlug(found);
      const params = r.params ? validate(r.params, rawParams, 'path') : undefined;
      const query = ctx.querystring === '' ? emptyQuery() : (validate(querySchema, ctx.query, 'query') as Query);
      const { body, file } = readsBody ? await readBody(ctx, r, bodies.idleMs) : NO_BODY;
      // What a page belongs to: the tenant (or the public route) and every filter but the paging itself.
      const scope = r.list ? pageScope(r.operationId, principal?.actor.tenantId ?? '', params, query) : '';
      const page: PageRequest = r.list ? form.toPage(query, scope) : NO_PAGE;
      const ip = ctx.ip;
      // The key's changes are audited as coming through the API, with the client's address.
      const actor = principal ? apiActor(principal.actor, ip) : null;
      const input = {
        actor,
        params,
        query,
        body,
        page,
        file,
        ip,
        origin: originOf(ctx),
        headers: ctx.headers,
        requestId: ctx.state.requestId as string,
        tenantSlug: slug ?? null,
        expandActors,
      };
      let result: Awaited<ReturnType<RouteDef['handle']>>;
      try {
        result = await r.handle(input);
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
      const expanded = r.actors && actors && principal;
      if (expanded) result = await actors.expand(principal.actor.tenantId, result);
      const alt = 'alternate' in r.success ? r.success.alternate : undefined;
      ctx.status = alt?.when(result) ? alt.status : r.success.status;
      if (location) ctx.set('Location', location(prefixOf(ctx, prefix), ctx.path, result));
      if (r.list) sendJson(ctx, form.envelope(pageOf(result, r.operationId), page, scope, cursorKey));
      else if (r.success.status !== 204) sendJson(ctx, result, expanded ? undefined : r.json);
    };
    for (const prefix of form.prefixes)
      table.add(r.method, `${prefix}${koaPath(r.path)}`, (ctx: Context) => handler(ctx, prefix));
  }
}

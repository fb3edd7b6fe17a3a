import type { Context } from 'koa';
import { isDomainError, type TenantLimits } from '@fundi/domain';
import type { HttpDeps } from '../http-deps.js';
import { bearer } from './auth.js';
import { applyRateLimit } from './rate-limit.js';

/** A path of the API, under either form's root. */
export const API = /^\/(api\/)?v1(\/|$)/;

/** Refused API keys from one address within `REFUSED_KEY_WINDOW_S` that raise a security alert (once per window). */
export const REFUSED_KEY_ALERT = 20;
const REFUSED_KEY_WINDOW_S = 600;

/**
 * Resolves a presented API key to a principal (left absent when missing or invalid: each route decides, so
 * signed-URL routes work without one) and counts the request against the key's limits, or the client address's.
 */
export function authenticateAndLimit(deps: HttpDeps): (ctx: Context) => Promise<void> {
  const now = deps.now ?? Date.now;
  const inbound = [...new Set(deps.routes.filter((r) => r.inbound).map((r) => r.path))];
  return async (ctx) => {
    const api = API.test(ctx.path);
    const presented = api ? bearer(ctx.get('authorization') || undefined) : null;
    if (presented) {
      try {
        ctx.state.principal = await deps.authenticator.execute(presented);
      } catch (e) {
        if (!isDomainError(e) || e.kind !== 'unauthorized') throw e;
        if (deps.onRefusedKeys) watchRefusals(deps, ctx.ip, presented, ctx.path, now());
      }
    }
    const principal = ctx.state.principal as
      | { actor: { id: string; tenantId: string }; limits: TenantLimits }
      | undefined;
    const at = now();
    const isInbound = !principal && inbound.length > 0 && inbound.some((p) => ctx.path.endsWith(p));
    await applyRateLimit(
      ctx,
      deps.rateLimits,
      principal ? keyCounter(principal.actor) : isInbound ? `inbound:${ctx.ip}` : `ip:${ctx.ip}`,
      principal?.limits ?? (isInbound ? (deps.inboundLimits ?? deps.anonymousLimits) : deps.anonymousLimits),
      at,
    );
    if (principal) deps.meter?.count(principal.actor.tenantId, principal.actor.id, at);
  };
}

/** A key's rate-limit counter name, made once per resolved key (its cached resolution keeps the same actor). */
const keyCounters = new WeakMap<{ id: string }, string>();
function keyCounter(actor: { id: string }): string {
  let name = keyCounters.get(actor);
  if (name === undefined) {
    name = `key:${actor.id}`;
    keyCounters.set(actor, name);
  }
  return name;
}

/** Counts a refused key against its address; the threshold-th refusal in a window is reported, in the background. */
function watchRefusals(deps: HttpDeps, ip: string, presented: string, path: string, at: number): void {
  void deps.rateLimits
    .hit(`refused-key:${ip}`, [{ seconds: REFUSED_KEY_WINDOW_S, limit: REFUSED_KEY_ALERT }], at)
    .then(([w]) =>
      w && w.hits === REFUSED_KEY_ALERT ? deps.onRefusedKeys!({ ip, presented, path, count: w.hits }) : undefined,
    )
    .catch((e: unknown) => deps.logger.warn({ err: e }, 'could not count a refused API key'));
}

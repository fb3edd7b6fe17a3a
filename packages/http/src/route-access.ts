import type { Principal } from '@fundi/application';
import { DomainError, type Scope } from '@fundi/domain';
import type { Context } from 'koa';
import type { RouteDef } from './routes/route.js';
import { unauthorized } from './middleware/auth.js';

function hasScope(granted: readonly Scope[], needed: Scope): boolean {
  return granted.includes(needed);
}

/** The request's principal; set by the auth middleware, absent when no valid key was presented. */
function principalOf(ctx: Context): Principal {
  const p = ctx.state.principal as Principal | undefined;
  if (!p) throw unauthorized();
  return p;
}

/** Checks the key: present, of the tenant Form B's slug names, holding the route's scope. */
export function authorise(ctx: Context, r: RouteDef): Principal {
  const principal = principalOf(ctx);
  if (ctx.params.slug !== undefined && ctx.params.slug !== principal.tenant.slug) {
    throw DomainError.forbidden('This API key belongs to another tenant');
  }
  if (r.scope !== 'any' && !hasScope(principal.actor.scopes, r.scope!)) {
    throw DomainError.forbidden(`This API key lacks the scope ${r.scope}`);
  }
  return principal;
}

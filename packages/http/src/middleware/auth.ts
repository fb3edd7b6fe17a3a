import type { Principal } from '@fundi/application';
import { DomainError } from '@fundi/domain';

export interface Authenticator {
  /** Resolves a presented key; throws DomainError `unauthorized` for a missing, unknown, expired or revoked one. */
  execute(presented: string): Promise<Principal>;
}

/** The bearer token of an `Authorization` header, or null. */
export function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

/**
 * Remembers resolved keys for `ttlMs` (0 = never). Used with Postgres, where each lookup is a round trip;
 * a revoked key then stops working within the TTL in every process.
 */
export function cachingAuthenticator(inner: Authenticator, ttlMs: number): Authenticator {
  if (ttlMs <= 0) return inner;
  const cache = new Map<string, { at: number; principal: Principal }>();
  return {
    async execute(presented) {
      const hit = cache.get(presented);
      const now = Date.now();
      if (hit && now - hit.at < ttlMs) return hit.principal;
      const principal = await inner.execute(presented);
      if (cache.size > 10_000) cache.clear();
      cache.set(presented, { at: now, principal });
      return principal;
    },
  };
}

export function unauthorized(): DomainError {
  return new DomainError('unauthorized', 'unauthorized', 'A valid API key is required: Authorization: Bearer <key>');
}

import type { Principal } from '@fundi/application';
import { ApiKey, DomainError } from '@fundi/domain';

export interface Authenticator {
  /** Resolves a presented key; throws DomainError `unauthorized` for a missing, unknown, expired or revoked one. */
  execute(presented: string): Promise<Principal>;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const SPACE = /\s/;

/**
 * The bearer token of an `Authorization` header, or null. The usual `Bearer <token>` (one space, no other) is
 * taken without a match object; any other spelling goes through the full pattern.
 */
export function bearer(header: string | undefined): string | null {
  if (!header) return null;
  if (header.length > 7 && header.startsWith('Bearer ')) {
    const token = header.slice(7);
    if (!SPACE.test(token)) return token;
  }
  const m = BEARER.exec(header);
  return m ? m[1]! : null;
}

/**
 * Remembers resolved keys. A cached resolution is used while the auth epoch (bumped by every tenant or key
 * write, in any process) is unchanged, so a revocation takes effect on the next request; within `ttlMs` even the
 * epoch is not read (used with Postgres, where each read is a round trip: revocation then takes up to `ttlMs`).
 */
export function cachingAuthenticator(
  inner: Authenticator & { authEpoch(): Promise<number> },
  ttlMs: number,
  now: () => Date = () => new Date(),
): Authenticator {
  const cache = new Map<string, { at: number; epoch: number; principal: Principal }>();
  return {
    async execute(presented) {
      const hit = cache.get(presented);
      const t = now();
      let epoch: number | undefined;
      if (hit && ApiKey.isUsable({ revokedAt: null, expiresAt: hit.principal.keyExpiresAt }, t)) {
        if (t.getTime() - hit.at < ttlMs) return hit.principal;
        epoch = await inner.authEpoch();
        if (epoch === hit.epoch) {
          hit.at = t.getTime();
          return hit.principal;
        }
      }
      epoch ??= await inner.authEpoch();
      const principal = await inner.execute(presented);
      if (cache.size > 10_000) cache.clear();
      cache.set(presented, { at: t.getTime(), epoch, principal });
      return principal;
    },
  };
}

export function unauthorized(): DomainError {
  return new DomainError('unauthorized', 'unauthorized', 'A valid API key is required: Authorization: Bearer <key>');
}

import { DomainError } from '../common/errors.js';
import { IsoDate } from '../common/dates.js';
import { parseRole, type AccessPolicy, type Role, type Scope } from './access.js';

export interface ApiKeySnapshot {
  id: string;
  tenantId: string;
  name: string;
  role: Role;
  scopes: Scope[];
  /** The first characters of the key, shown in listings so a person can recognise it. */
  prefix: string;
  /** Hash of the whole key; the key itself is never stored. */
  hash: string;
  /** Last day (UTC) on which the key works, `YYYY-MM-DD`; `null` = no expiry. */
  expiresAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

export type ApiKeyView = Omit<ApiKeySnapshot, 'hash'>;

export const ApiKey = {
  create(
    input: { name: unknown; role: unknown; scopes?: readonly string[]; expiresAt?: unknown },
    ctx: { id: string; tenantId: string; prefix: string; hash: string; now: Date; access: AccessPolicy },
  ): ApiKeySnapshot {
    if (typeof input.name !== 'string' || !input.name.trim() || input.name.length > 100) {
      throw DomainError.invalid('name', 'must be a non-empty string of at most 100 characters');
    }
    const role = parseRole(input.role);
    const expiresAt = input.expiresAt == null ? null : IsoDate.parse(input.expiresAt, 'expiresAt');
    if (expiresAt && expiresAt < ctx.now.toISOString().slice(0, 10)) {
      throw DomainError.invalid('expiresAt', 'must not be in the past');
    }
    return {
      id: ctx.id,
      tenantId: ctx.tenantId,
      name: input.name.trim(),
      role,
      scopes: ctx.access.resolve(role, input.scopes),
      prefix: ctx.prefix,
      hash: ctx.hash,
      expiresAt,
      revokedAt: null,
      createdAt: ctx.now.toISOString(),
    };
  },

  /** Usable = not revoked and not past its last day. */
  isUsable(k: Pick<ApiKeySnapshot, 'revokedAt' | 'expiresAt'>, now: Date): boolean {
    if (k.revokedAt) return false;
    return !k.expiresAt || now.toISOString().slice(0, 10) <= k.expiresAt;
  },

  view(k: ApiKeySnapshot): ApiKeyView {
    const { hash: _hash, ...rest } = k;
    return rest;
  },
};

/** Port: makes and hashes API key secrets (and other bearer secrets). */
export interface SecretGenerator {
  /** A new random key with its recognisable prefix and its hash. */
  newApiKey(): { key: string; prefix: string; hash: string };
  /** The hash under which a presented key is looked up. Deterministic. */
  hash(secret: string): string;
}

import { DomainError } from '../common/errors.js';
import { DEFAULT_FIELD_MAPPING, parseFieldMapping, type FieldMapping } from './hr-mapping.js';

/** A tenant's HR synchronisation (docs/api.md, "HR sync"). One per tenant. */
export interface HrSyncConfigSnapshot {
  tenantId: string;
  enabled: boolean;
  system: 'custom';
  outboundUrl: string | null;
  /** The request header that carries the webhook key on inbound calls. */
  headerName: string;
  fieldMapping: FieldMapping;
  /** Hash of the current webhook key (the key itself is shown once, at rotation). */
  keyHash: string | null;
  /** The first characters of the current key, for recognition. */
  keyPrefix: string | null;
  /** The key before the last rotation keeps working until `previousKeyExpiresAt`. */
  previousKeyHash: string | null;
  previousKeyExpiresAt: string | null;
  /** The webhook subscription (purpose `hr_sync`) that carries outbound events, once an outboundUrl was set. */
  subscriptionId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** How long a replaced webhook key keeps working. */
export const KEY_OVERLAP_MS = 24 * 60 * 60 * 1000;
export const HR_KEY_PREFIX = 'hrk_';
const HEADER = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
const FORBIDDEN_HEADERS = ['authorization', 'content-type', 'content-length', 'host', 'cookie', 'transfer-encoding'];

export interface HrSyncInput {
  enabled?: unknown;
  system?: unknown;
  outboundUrl?: unknown;
  authentication?: { type?: unknown; headerName?: unknown };
  fieldMapping?: unknown;
}

export function parseHeaderName(value: unknown, field = 'authentication.headerName'): string {
  if (typeof value !== 'string' || !HEADER.test(value) || FORBIDDEN_HEADERS.includes(value.toLowerCase()))
    throw DomainError.invalid(field, 'must be an HTTP header name (not Authorization, Content-Type, Host or Cookie)');
  return value;
}

export const HrSyncConfig = {
  /** The configuration of a tenant that never set one: disabled, the specification's mapping, `X-API-Key`. */
  initial(tenantId: string, now: Date): HrSyncConfigSnapshot {
    const at = now.toISOString();
    return {
      tenantId,
      enabled: false,
      system: 'custom',
      outboundUrl: null,
      headerName: 'X-API-Key',
      fieldMapping: { ...DEFAULT_FIELD_MAPPING },
      keyHash: null,
      keyPrefix: null,
      previousKeyHash: null,
      previousKeyExpiresAt: null,
      subscriptionId: null,
      createdAt: at,
      updatedAt: at,
    };
  },

  /** Fields given replace the stored ones; `outboundUrl` is checked by the caller (URL and address rules). */
  update(c: HrSyncConfigSnapshot, input: HrSyncInput, outboundUrl: string | null | undefined, now: Date) {
    if (input.enabled !== undefined && typeof input.enabled !== 'boolean')
      throw DomainError.invalid('enabled', 'must be a boolean');
    if (input.system !== undefined && input.system !== 'custom')
      throw DomainError.invalid('system', 'must be "custom" (the generic integration)');
    if (input.authentication?.type !== undefined && input.authentication.type !== 'api_key')
      throw DomainError.invalid('authentication.type', 'must be "api_key"');
    const headerName =
      input.authentication?.headerName !== undefined ? parseHeaderName(input.authentication.headerName) : c.headerName;
    const fieldMapping = input.fieldMapping !== undefined ? parseFieldMapping(input.fieldMapping) : c.fieldMapping;
    return {
      ...c,
      enabled: (input.enabled as boolean | undefined) ?? c.enabled,
      outboundUrl: outboundUrl === undefined ? c.outboundUrl : outboundUrl,
      headerName,
      fieldMapping,
      updatedAt: now.toISOString(),
    } satisfies HrSyncConfigSnapshot;
  },

  /** A new key: the current one becomes the previous one for 24 h. */
  rotateKey(c: HrSyncConfigSnapshot, hash: string, prefix: string, now: Date): HrSyncConfigSnapshot {
    return {
      ...c,
      keyHash: hash,
      keyPrefix: prefix,
      previousKeyHash: c.keyHash,
      previousKeyExpiresAt: c.keyHash ? new Date(now.getTime() + KEY_OVERLAP_MS).toISOString() : null,
      updatedAt: now.toISOString(),
    };
  },

  /** Which key `hash` is: `current`, `previous` (within its 24 h), or null. Compared in constant time. */
  keyMatch(c: HrSyncConfigSnapshot, hash: string, now: Date): 'current' | 'previous' | null {
    const current = c.keyHash !== null && sameHash(c.keyHash, hash);
    const previous =
      c.previousKeyHash !== null &&
      sameHash(c.previousKeyHash, hash) &&
      c.previousKeyExpiresAt !== null &&
      c.previousKeyExpiresAt > now.toISOString();
    return current ? 'current' : previous ? 'previous' : null;
  },
};

/** Constant-time comparison of two hex digests (no early exit on the first difference). */
export function sameHash(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}

/** A new webhook key: `hrk_` + 32 random base64url characters (192 bits). */
export function generateHrKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return (
    HR_KEY_PREFIX +
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
  );
}

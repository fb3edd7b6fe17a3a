import { DomainError } from '@fundi/domain';
import { HR_KEY_PREFIX, HrSyncConfig, type HrSyncConfigSnapshot } from '@fundi/domain/hr-sync';
import type { HrSyncDeps } from './hr-sync-ports.js';
import type { InboundCall } from './hr-inbound-call.js';

const unauthorized = () =>
  new DomainError('unauthorized', 'unauthorized', 'A valid webhook key is required in the configured header');

/**
 * Form B: the tenant of the path, its configured header, its current key or the previous one within 24 h; a key
 * of another tenant is 403. Form A: the key names the tenant, and must arrive in that tenant's header.
 */
export async function authenticateHrCall(
  deps: Pick<HrSyncDeps, 'repos' | 'secrets' | 'clock'>,
  call: Pick<InboundCall, 'tenantSlug' | 'headers'>,
): Promise<HrSyncConfigSnapshot> {
  const { repos, secrets } = deps;
  const now = deps.clock.now();
  if (call.tenantSlug !== null) {
    const config = await repos.hrSyncConfigs.findByTenantSlug(call.tenantSlug);
    const presented = config ? headerValue(call.headers, config.headerName) : null;
    if (!config || !presented) throw unauthorized();
    const hash = secrets.hash(presented);
    if (!HrSyncConfig.keyMatch(config, hash, now)) {
      const other = await repos.hrSyncConfigs.findByKeyHash(hash);
      if (other && HrSyncConfig.keyMatch(other, hash, now))
        throw DomainError.forbidden('This webhook key belongs to another tenant');
      throw unauthorized();
    }
    return requireEnabled(config);
  }
  // At most a few candidate headers are looked up: a request stuffed with key-like headers costs no more.
  const candidates = Object.entries(call.headers)
    .filter((h): h is [string, string] => typeof h[1] === 'string' && h[1].startsWith(HR_KEY_PREFIX))
    .slice(0, 3);
  for (const [name, value] of candidates) {
    const hash = secrets.hash(value.trim());
    const config = await repos.hrSyncConfigs.findByKeyHash(hash);
    if (config && config.headerName.toLowerCase() === name && HrSyncConfig.keyMatch(config, hash, now))
      return requireEnabled(config);
  }
  throw unauthorized();
}

function requireEnabled(c: HrSyncConfigSnapshot): HrSyncConfigSnapshot {
  if (!c.enabled) throw DomainError.forbidden('HR sync is disabled for this tenant', 'hr_sync_disabled');
  return c;
}

function headerValue(headers: InboundCall['headers'], name: string): string | null {
  const v = headers[name.toLowerCase()];
  const s = Array.isArray(v) ? v[0] : v;
  return s?.trim() ? s.trim() : null;
}

import { newId } from '@fundi/domain';
import { SECURITY_EVENT } from '../tenants/api-key-events.js';
import { DASHBOARD_PAGES, dashboardUrl } from './dashboard-pages.js';
import type { Draft } from './notification-drafts.js';
import { toStaff } from './staff-messages.js';
import { str, type RunCache, type TriggerContext } from './trigger-drafts.js';
import type { TriggerPayload } from './trigger-sources.js';

/**
 * One address presented many refused API keys in a short time (the HTTP layer counts them): when the tenant can
 * be told (the key was one of its revoked or expired keys, or the path names it), an internal security event is
 * written, which alerts its administrators. Returns the tenant told, or null.
 */
export async function noteRefusedKeys(
  c: TriggerContext,
  r: { ip: string; presented: string; path: string; count: number },
): Promise<string | null> {
  const repos = c.d.repos;
  const key = await repos.apiKeys.findByHash(c.d.secrets.hash(r.presented));
  const slug = /^\/(?:api\/)?v1\/tenants\/([a-z0-9-]{1,50})(?:\/|$)/.exec(r.path)?.[1];
  const tenantId = key?.tenantId ?? (slug ? (await repos.tenants.findBySlug(slug))?.id : undefined);
  if (!tenantId) return null;
  const now = c.d.clock.now();
  await c.d.uow.run((tx) =>
    tx.outbox.add({
      id: newId('evt'),
      tenantId,
      type: SECURITY_EVENT,
      occurredAt: now.toISOString(),
      data: { action: 'refused', count: r.count, ip: r.ip, keyName: key?.name ?? null },
    }),
  );
  return tenantId;
}

/** A security event (an API key created or revoked, or refused keys): the administrators are alerted. */
export function securityAlert(c: TriggerContext, cache: RunCache, p: TriggerPayload): Promise<Draft[]> {
  const d = p.data;
  return toStaff(c, cache, p, 'security_alert', ['admin'], {
    'alert.summary':
      d.action === 'refused'
        ? `${String(d.count)} requests with a refused API key${d.keyName ? ` (one of yours: "${str(d.keyName)}", revoked or expired)` : ''} came from ${str(d.ip)} within 10 minutes.`
        : `The API key "${str(d.keyName)}"${d.role ? ` (role ${str(d.role)})` : ''} was ${str(d.action)}.`,
    actionUrl: dashboardUrl(c.d, DASHBOARD_PAGES.apiKeys),
  });
}

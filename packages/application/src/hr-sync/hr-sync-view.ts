import type { WebhookSubscriptionSnapshot } from '@fundi/domain/webhooks';
import type { FieldMapping, HrSyncConfigSnapshot } from '@fundi/domain/hr-sync';

export interface HrSyncView {
  enabled: boolean;
  system: 'custom';
  /** Where HR posts its events (the tenant's Form B path). */
  inboundUrl: string;
  outboundUrl: string | null;
  authentication: { type: 'api_key'; headerName: string };
  fieldMapping: FieldMapping;
  /** The current webhook key's first characters (null before the first rotation). */
  keyPrefix: string | null;
  previousKeyExpiresAt: string | null;
  /** The outbound deliveries: stopped (`enabled: false`) after 5 failed attempts of one event, until a PUT. */
  outbound: { enabled: boolean; disabledReason: string | null; previousSecretExpiresAt: string | null } | null;
  updatedAt: string;
}

export function hrSyncView(
  c: HrSyncConfigSnapshot,
  inboundUrl: string,
  sub: WebhookSubscriptionSnapshot | null,
): HrSyncView {
  return {
    enabled: c.enabled,
    system: c.system,
    inboundUrl,
    outboundUrl: c.outboundUrl,
    authentication: { type: 'api_key', headerName: c.headerName },
    fieldMapping: { ...c.fieldMapping },
    keyPrefix: c.keyPrefix,
    previousKeyExpiresAt: c.previousKeyExpiresAt,
    outbound: sub
      ? {
          enabled: sub.enabled,
          disabledReason: sub.disabledReason,
          previousSecretExpiresAt: sub.previousSecretExpiresAt,
        }
      : null,
    updatedAt: c.updatedAt,
  };
}

import type { DeliverySnapshot, WebhookSubscriptionSnapshot } from '@fundi/domain/webhooks';
import { str, type Row } from '../db/sql-helpers.js';

export type { Row };
const num = (v: Row[string] | undefined) => (v === null || v === undefined ? null : Number(v));

export const SUBSCRIPTION_COLUMNS = [
  'id',
  'tenant_id',
  'url',
  'events',
  'enabled',
  'secret_ciphertext',
  'previous_secret_ciphertext',
  'previous_secret_expires_at',
  'disabled_reason',
  'created_at',
  'updated_at',
  'purpose',
] as const;

export function subscriptionToRow(s: WebhookSubscriptionSnapshot): (string | boolean | null)[] {
  return [
    s.id,
    s.tenantId,
    s.url,
    JSON.stringify(s.events),
    s.enabled,
    s.secretCiphertext,
    s.previousSecretCiphertext,
    s.previousSecretExpiresAt,
    s.disabledReason,
    s.createdAt,
    s.updatedAt,
    s.purpose,
  ];
}

export function rowToSubscription(r: Row): WebhookSubscriptionSnapshot {
  return {
    id: String(r.id),
    tenantId: String(r.tenant_id),
    purpose: (r.purpose ?? 'webhook') as WebhookSubscriptionSnapshot['purpose'],
    url: String(r.url),
    events: JSON.parse(String(r.events)),
    enabled: Boolean(r.enabled),
    secretCiphertext: String(r.secret_ciphertext),
    previousSecretCiphertext: str(r.previous_secret_ciphertext),
    previousSecretExpiresAt: str(r.previous_secret_expires_at),
    disabledReason: str(r.disabled_reason),
    createdAt: String(r.created_at),
    updatedAt: String(r.updated_at),
  };
}

export const DELIVERY_COLUMNS = [
  'id',
  'tenant_id',
  'subscription_id',
  'event_id',
  'event_type',
  'status',
  'attempts',
  'next_attempt_at',
  'lease_owner',
  'lease_until',
  'last_status_code',
  'delivered_at',
  'created_at',
] as const;

export function deliveryToRow(d: DeliverySnapshot): (string | number | null)[] {
  return [
    d.id,
    d.tenantId,
    d.subscriptionId,
    d.eventId,
    d.eventType,
    d.status,
    d.attempts,
    d.nextAttemptAt,
    d.leaseOwner,
    d.leaseUntil,
    d.lastStatusCode,
    d.deliveredAt,
    d.createdAt,
  ];
}

export function rowToDelivery(r: Row): DeliverySnapshot {
  return {
    id: String(r.id),
    tenantId: String(r.tenant_id),
    subscriptionId: String(r.subscription_id),
    eventId: String(r.event_id),
    eventType: String(r.event_type),
    status: String(r.status) as DeliverySnapshot['status'],
    attempts: Number(r.attempts),
    nextAttemptAt: str(r.next_attempt_at),
    leaseOwner: str(r.lease_owner),
    leaseUntil: str(r.lease_until),
    lastStatusCode: num(r.last_status_code),
    deliveredAt: str(r.delivered_at),
    createdAt: String(r.created_at),
  };
}

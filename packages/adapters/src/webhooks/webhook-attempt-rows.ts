import type { AttemptSnapshot } from '@fundi/domain/webhooks';
import { str, type Row } from '../db/sql-helpers.js';

const num = (v: Row[string] | undefined) => (v === null || v === undefined ? null : Number(v));

/** The attempt log's rows (`webhook_attempts`). */
export const ATTEMPT_COLUMNS = [
  'id',
  'delivery_id',
  'tenant_id',
  'subscription_id',
  'event_id',
  'event_type',
  'attempt',
  'at',
  'status_code',
  'latency_ms',
  'error',
  'response_excerpt',
] as const;

export function attemptToRow(a: AttemptSnapshot): (string | number | null)[] {
  return [
    a.id,
    a.deliveryId,
    a.tenantId,
    a.subscriptionId,
    a.eventId,
    a.eventType,
    a.attempt,
    a.at,
    a.statusCode,
    Math.round(a.latencyMs),
    a.error,
    a.responseExcerpt,
  ];
}

export function rowToAttempt(r: Row): AttemptSnapshot {
  return {
    id: String(r.id),
    deliveryId: String(r.delivery_id),
    tenantId: String(r.tenant_id),
    subscriptionId: String(r.subscription_id),
    eventId: String(r.event_id),
    eventType: String(r.event_type),
    attempt: Number(r.attempt),
    at: String(r.at),
    statusCode: num(r.status_code),
    latencyMs: Number(r.latency_ms),
    error: str(r.error),
    responseExcerpt: str(r.response_excerpt),
  };
}

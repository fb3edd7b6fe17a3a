import type { DomainEvent } from '@fundi/domain';
import type {
  AttemptSnapshot,
  DeliverySnapshot,
  TenantAlert,
  WebhookSubscriptionSnapshot,
} from '@fundi/domain/webhooks';
import type { MemoryStore } from '../common/memory-store.js';

/** The webhooks capability's tables in memory. */
export interface WebhookTables {
  /** Outbox event id -> when it was fanned out (SQL keeps only the queue of those not yet fanned out, `outbox_pending`). */
  dispatched: Map<string, string>;
  webhookSubscriptions: Map<string, WebhookSubscriptionSnapshot>;
  webhookDeliveries: Map<string, DeliverySnapshot>;
  webhookAttempts: AttemptSnapshot[];
  tenantAlerts: TenantAlert[];
}

/** The webhooks' in-memory repositories read the platform's outbox (fan-out, replay). */
export type WebhookStore = MemoryStore<WebhookTables & { outbox: DomainEvent[] }>;

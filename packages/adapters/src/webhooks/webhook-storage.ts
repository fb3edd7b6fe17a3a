import type { WebhookRepos } from '@fundi/domain/webhooks';
import { webhookMemory } from '@fundi/memory/webhooks';
import { deliveryIndexes } from './migrations/202611211135-delivery-indexes.js';
import { subscriptionPurpose } from './migrations/202611232342-subscription-purpose.js';
import { pendingWorkIndexes } from './migrations/202611242306-pending-work-indexes.js';
import { retentionMigration } from './migrations/202611270940-retention.js';
import { SqlWebhookLogRetention } from './sql-webhook-retention.js';
import { SqlWebhookDeliveryRepository } from './sql-webhook-deliveries.js';
import { SqlOutboxFeed } from '../platform/sql-outbox-feed.js';
import { SqlTenantAlertLog } from './sql-tenant-alerts.js';
import { SqlWebhookAttemptLog } from './sql-webhook-log.js';
import { SqlWebhookSubscriptionRepository } from './sql-webhook-subscriptions.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';

/**
 * Subscriptions, deliveries, the attempt log, the outbox feed, tenant alerts and the log's retention (their tables
 * come with the platform's migration `jobs-and-webhooks`).
 */
export const webhookStorage: CapabilityStorage<WebhookRepos> = {
  migrations: [deliveryIndexes, subscriptionPurpose, pendingWorkIndexes, retentionMigration],
  sql: (db, qb) => ({
    webhookSubscriptions: new SqlWebhookSubscriptionRepository(db, qb),
    webhookDeliveries: new SqlWebhookDeliveryRepository(db),
    webhookAttempts: new SqlWebhookAttemptLog(db),
    outboxFeed: new SqlOutboxFeed(db, qb),
    tenantAlerts: new SqlTenantAlertLog(db),
    webhookRetention: new SqlWebhookLogRetention(db),
  }),
  memory: webhookMemory,
  // Receivers' replies to a learner's events are cleared.
  erasureTables: ['webhook_attempts'],
};

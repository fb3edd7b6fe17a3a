import type { WebhookRepos } from '@fundi/domain';
import { webhookMemory } from '@fundi/memory/webhooks';
import { eventSubjects } from '../migrations/004-event-subjects.js';
import { deliveryIndexes } from '../migrations/005-delivery-indexes.js';
import { subscriptionPurpose } from './011-subscription-purpose.js';
import { pendingWorkIndexes } from './021-pending-work-indexes.js';
import { retentionMigration } from './027-retention.js';
import { SqlWebhookLogRetention } from './sql-webhook-retention.js';
import { SqlWebhookDeliveryRepository } from '../repos/sql-webhook-deliveries.js';
import { SqlOutboxFeed, SqlTenantAlertLog, SqlWebhookAttemptLog } from '../repos/sql-webhook-log.js';
import { SqlWebhookSubscriptionRepository } from '../repos/sql-webhook-subscriptions.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';

/**
 * Subscriptions, deliveries, the attempt log, the outbox feed, tenant alerts and the log's retention (tables:
 * migration 003, platform).
 */
export const webhookStorage: CapabilityStorage<WebhookRepos> = {
  migrations: [eventSubjects, deliveryIndexes, subscriptionPurpose, pendingWorkIndexes, retentionMigration],
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

import type { WebhookRepos } from '@fundi/domain/webhooks';
import type { CoreDeps } from '../common/ports.js';
import type { RetentionTask } from '../retention/retention-policy.js';

declare module '../retention/retention-policy.js' {
  interface RetentionKinds {
    /** Webhook events, settled deliveries and queue leftovers. */
    webhookEvents: true;
    /** Delivery attempts. */
    webhookAttempts: true;
  }
}

/**
 * The webhook log: attempts by age; then settled deliveries, events no receiver is still owed, and queue entries
 * left without their event. A replay "since" a date reads the events still kept, so it reaches back as far as their
 * retention (docs/webhooks.md).
 */
export function webhookRetention(d: Pick<CoreDeps<Pick<WebhookRepos, 'webhookRetention'>>, 'repos'>): RetentionTask[] {
  const r = d.repos.webhookRetention;
  return [
    { kind: 'webhookAttempts', prune: (before, limit) => r.pruneAttempts(before.toISOString(), limit) },
    { kind: 'webhookEvents', step: 'deliveries', prune: (b, limit) => r.pruneDeliveries(b.toISOString(), limit) },
    { kind: 'webhookEvents', step: 'events', prune: (b, limit) => r.pruneEvents(b.toISOString(), limit) },
    { kind: 'webhookEvents', step: 'queueLeftovers', prune: (_b, limit) => r.prunePendingLeftovers(limit) },
  ];
}

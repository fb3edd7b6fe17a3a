import type { WebhookLogRetention } from '@fundi/domain/webhooks';
import type { SqlDb } from '../db/sql-db.js';

const SETTLED = `status IN ('delivered', 'dead')`;
const OWED = `status NOT IN ('delivered', 'dead')`;

/** Retention of the webhook log over the indexes of migration 027: each call one DELETE of the oldest rows. */
export class SqlWebhookLogRetention implements WebhookLogRetention {
  constructor(private readonly db: SqlDb) {}

  private async prune(table: string, key: string, pick: string, bindings: (string | number)[]): Promise<number> {
    const sql = `DELETE FROM ${table} WHERE ${this.db.dialect.amongPicked(key, pick)}`;
    return (await this.db.run(sql, bindings)).changes;
  }

  pruneAttempts(before: string, limit: number): Promise<number> {
    return this.prune('webhook_attempts', 'id', 'SELECT id FROM webhook_attempts WHERE at < ? ORDER BY at LIMIT ?', [
      before,
      limit,
    ]);
  }

  pruneDeliveries(before: string, limit: number): Promise<number> {
    const pick = `SELECT id FROM webhook_deliveries WHERE ${SETTLED} AND created_at < ? ORDER BY created_at LIMIT ?`;
    return this.prune('webhook_deliveries', 'id', pick, [before, limit]);
  }

  pruneEvents(before: string, limit: number): Promise<number> {
    const pick = `SELECT e.id FROM outbox_events e WHERE e.occurred_at < ?
      AND NOT EXISTS (SELECT 1 FROM outbox_pending p WHERE p.id = e.id)
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.${OWED})
      ORDER BY e.occurred_at LIMIT ?`;
    return this.prune('outbox_events', 'id', pick, [before, limit]);
  }

  prunePendingLeftovers(limit: number): Promise<number> {
    const pick = `SELECT p.id FROM outbox_pending p WHERE NOT EXISTS (SELECT 1 FROM outbox_events e WHERE e.id = p.id)
      LIMIT ?`;
    return this.prune('outbox_pending', 'id', pick, [limit]);
  }
}

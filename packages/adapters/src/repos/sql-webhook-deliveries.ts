import type { ClaimedDelivery, DeliveryChange, DeliverySnapshot, WebhookDeliveryRepository } from '@fundi/domain';
import type { SqlDb } from '../db/sql-db.js';
import { eventOf } from './sql-audit-outbox.js';
import { DELIVERY_COLUMNS, chunks, deliveryToRow, marks, rowToDelivery, valuesList, type Row } from './webhook-rows.js';

const INSERT_PREFIX = `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS.join(', ')}) VALUES `;
// `next_attempt_at` is non-null exactly for due statuses (pending, failed), which keeps the claim one index walk.
const DUE = 'next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)';
const CLAIMED_COLUMNS = `d.*, e.type AS e_type, e.occurred_at AS e_occurred_at, e.data AS e_data,
  s.url AS s_url, s.enabled AS s_enabled, s.secret_ciphertext AS s_secret, s.previous_secret_ciphertext AS s_previous,
  s.previous_secret_expires_at AS s_previous_expires`;
const JOINED = 'JOIN outbox_events e ON e.id = d.event_id JOIN webhook_subscriptions s ON s.id = d.subscription_id';
const CLAIMED_WITH = `SELECT ${CLAIMED_COLUMNS} FROM webhook_deliveries d ${JOINED} WHERE d.id IN `;
/** Postgres: pick (SKIP LOCKED), lease and read in one statement, one round trip. */
const PG_CLAIM = `WITH picked AS (SELECT id FROM webhook_deliveries WHERE ${DUE} ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED),
  leased AS (UPDATE webhook_deliveries w SET lease_owner = ?, lease_until = ? FROM picked WHERE w.id = picked.id RETURNING w.*)
  SELECT ${CLAIMED_COLUMNS} FROM leased d ${JOINED}`;

export class SqlWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly db: SqlDb) {}

  async insertMany(deliveries: readonly DeliverySnapshot[]): Promise<void> {
    for (const part of chunks(deliveries, 500)) {
      await this.db.run(INSERT_PREFIX + valuesList(part.length, DELIVERY_COLUMNS.length), part.flatMap(deliveryToRow));
    }
  }

  async findById(tenantId: string, subscriptionId: string, id: string): Promise<DeliverySnapshot | null> {
    const row = await this.db.first<Row>('SELECT * FROM webhook_deliveries WHERE tenant_id = ? AND subscription_id = ? AND id = ?', [tenantId, subscriptionId, id]);
    return row ? rowToDelivery(row) : null;
  }

  /**
   * Postgres: one statement. SQLite: three in the caller's transaction (pick, lease, read), which is cheap there
   * because SQLite has a single writer and no round trips.
   */
  async claimDue(owner: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    if (this.db.dialect.name === 'postgres') return (await this.db.all<Row>(PG_CLAIM, [now, now, limit, owner, leaseUntil])).map(claimedOf);
    const picked = await this.db.all<{ id: string }>(
      `SELECT id FROM webhook_deliveries WHERE ${DUE} ORDER BY next_attempt_at LIMIT ? ${this.db.dialect.skipLocked}`, [now, now, limit]);
    if (picked.length === 0) return [];
    const ids = picked.map((p) => p.id);
    await this.db.run(`UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ? WHERE id IN (${marks(ids.length)})`, [owner, leaseUntil, ...ids]);
    return (await this.db.all<Row>(`${CLAIMED_WITH}(${marks(ids.length)})`, ids)).map(claimedOf);
  }

  /** Outcomes that share every value (a batch of 2xx, typically) become one UPDATE. */
  async saveOutcomes(owner: string, changes: readonly (DeliveryChange & { id: string })[]): Promise<void> {
    const groups = new Map<string, string[]>();
    for (const c of changes) {
      const key = JSON.stringify([c.status, c.attempts, c.nextAttemptAt, c.lastStatusCode, c.deliveredAt]);
      groups.set(key, [...(groups.get(key) ?? []), c.id]);
    }
    for (const [key, ids] of groups) {
      const values = JSON.parse(key) as (string | number | null)[];
      for (const part of chunks(ids, 500)) {
        await this.db.run(
          `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_status_code = ?, delivered_at = ?,
           lease_owner = NULL, lease_until = NULL WHERE lease_owner = ? AND id IN (${marks(part.length)})`, [...values, owner, ...part]);
      }
    }
  }

  async release(owner: string): Promise<number> {
    return (await this.db.run('UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?', [owner])).changes;
  }

  async hold(subscriptionId: string): Promise<number> {
    return (await this.db.run(`UPDATE webhook_deliveries SET status = 'held', next_attempt_at = NULL WHERE subscription_id = ? AND status IN ('pending', 'failed')`, [subscriptionId])).changes;
  }

  async requeueUndelivered(subscriptionId: string, now: string): Promise<number> {
    return (await this.db.run(`UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = ? WHERE subscription_id = ? AND status IN ('held', 'dead')`, [now, subscriptionId])).changes;
  }
}

function claimedOf(r: Row): ClaimedDelivery {
  return {
    delivery: rowToDelivery(r),
    event: eventOf({ id: String(r.event_id), tenant_id: String(r.tenant_id), type: String(r.e_type), occurred_at: String(r.e_occurred_at), data: String(r.e_data) }),
    subscription: {
      url: String(r.s_url), enabled: Boolean(r.s_enabled), secretCiphertext: String(r.s_secret),
      previousSecretCiphertext: (r.s_previous as string | null) ?? null, previousSecretExpiresAt: (r.s_previous_expires as string | null) ?? null,
    },
  };
}

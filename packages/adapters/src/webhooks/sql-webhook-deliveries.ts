import type {
  AttemptOutcome,
  ClaimedDelivery,
  DeliverySnapshot,
  WebhookDeliveryRepository,
} from '@fundi/domain/webhooks';
import { PLAN_PER_CALL, type SqlDb } from '../db/sql-db.js';
import { chunks, type Row } from '../db/sql-helpers.js';
import { ATTEMPT_COLUMNS, attemptToRow } from './webhook-attempt-rows.js';
import { CLAIMED_COLUMNS, claimedJoins, claimedOf } from './claimed-delivery-rows.js';
import { DELIVERY_COLUMNS, deliveryToRow, rowToDelivery } from './webhook-rows.js';

const INSERT = `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS.join(', ')}) `;
const DELIVERY_TYPES = { attempts: 'integer', last_status_code: 'integer' } as const;
// `next_attempt_at` is non-null exactly for due statuses (pending, failed), which keeps the claim one index walk.
const DUE = 'next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)';
const ATTEMPT_TYPES = { attempt: 'integer', status_code: 'integer', latency_ms: 'integer' } as const;
const CHANGE_COLUMNS = ['id', 'status', 'attempts', 'next_attempt_at', 'last_status_code', 'delivered_at'] as const;
const CHANGE_TYPES = { attempts: 'integer', last_status_code: 'integer' } as const;
const INSERT_ATTEMPTS = `INSERT INTO webhook_attempts (${ATTEMPT_COLUMNS.join(', ')}) `;
/**
 * Every delivery's own new state in one UPDATE, `v` joined on id (`UPDATE ... FROM`). The deliveries are reached by
 * primary key whatever the statistics: their ids are given as a set too (`Dialect.amongPicked`; a join to the
 * changes on a young table without statistics was planned as a scan of every delivery), and the lease owner is
 * compared as an expression (`|| ''`), never an index choice. Planned per call.
 */
const applyChanges = (db: SqlDb, changes: string) =>
  `v(${CHANGE_COLUMNS.join(', ')}) AS (${changes})
  UPDATE webhook_deliveries SET status = v.status, attempts = CAST(v.attempts AS INTEGER),
  next_attempt_at = v.next_attempt_at, last_status_code = CAST(v.last_status_code AS INTEGER), delivered_at = v.delivered_at,
  lease_owner = NULL, lease_until = NULL FROM v WHERE webhook_deliveries.id = v.id
  AND ${db.dialect.amongPicked('webhook_deliveries.id', 'SELECT id FROM v')} AND webhook_deliveries.lease_owner || '' = ?`;
const changeToRow = ({ attempt: a, change: c }: AttemptOutcome) => [
  a.deliveryId,
  c.status,
  c.attempts,
  c.nextAttemptAt,
  c.lastStatusCode,
  c.deliveredAt,
];

export class SqlWebhookDeliveryRepository implements WebhookDeliveryRepository {
  private readonly joins: string;
  constructor(private readonly db: SqlDb) {
    this.joins = claimedJoins(db);
  }

  async insertMany(deliveries: readonly DeliverySnapshot[]): Promise<void> {
    const { dialect } = this.db;
    for (const part of chunks(deliveries, dialect.rowsPerStatement(DELIVERY_COLUMNS.length))) {
      const rows = dialect.rows(DELIVERY_COLUMNS, part.map(deliveryToRow), DELIVERY_TYPES);
      await this.db.run(INSERT + rows.sql, rows.bindings);
    }
  }

  async findById(tenantId: string, subscriptionId: string, id: string): Promise<DeliverySnapshot | null> {
    const row = await this.db.first<Row>(
      'SELECT * FROM webhook_deliveries WHERE tenant_id = ? AND subscription_id = ? AND id = ?',
      [tenantId, subscriptionId, id],
    );
    return row ? rowToDelivery(row) : null;
  }

  /** One statement on Postgres, two in one transaction on SQLite (`Dialect.claimWithSkipLocked`). */
  async claimDue(owner: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    const rows = await this.db.dialect.claimWithSkipLocked<Row>(this.db, {
      table: 'webhook_deliveries',
      due: DUE,
      dueBindings: [now, now],
      orderBy: 'next_attempt_at',
      limit,
      set: 'lease_owner = ?, lease_until = ?',
      setBindings: [owner, leaseUntil],
      select: CLAIMED_COLUMNS,
      joins: this.joins,
    });
    return rows.map(claimedOf);
  }

  /**
   * The attempts and every delivery's new state. With writable CTEs (Postgres): one statement, autocommit, the
   * attempts' INSERT riding in a CTE. Without (SQLite): two statements per batch of rows, in one transaction.
   */
  async saveOutcomes(owner: string, outcomes: readonly AttemptOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const { dialect } = this.db;
    const parts = chunks(outcomes, dialect.rowsPerStatement(ATTEMPT_COLUMNS.length));
    const rowsOf = (part: readonly AttemptOutcome[]) => ({
      attempts: dialect.rows(
        ATTEMPT_COLUMNS,
        part.map((o) => attemptToRow(o.attempt)),
        ATTEMPT_TYPES,
      ),
      changes: dialect.rows(CHANGE_COLUMNS, part.map(changeToRow), CHANGE_TYPES),
    });
    if (dialect.writableCte) {
      for (const part of parts) {
        const { attempts, changes } = rowsOf(part);
        await this.db.run(
          `${PLAN_PER_CALL}WITH logged AS (${INSERT_ATTEMPTS}${attempts.sql}), ${applyChanges(this.db, changes.sql)}`,
          [...attempts.bindings, ...changes.bindings, owner],
        );
      }
      return;
    }
    await this.db.transaction(async (tx) => {
      for (const part of parts) {
        const { attempts, changes } = rowsOf(part);
        await tx.run(INSERT_ATTEMPTS + attempts.sql, attempts.bindings);
        await tx.run(`${PLAN_PER_CALL}WITH ${applyChanges(tx, changes.sql)}`, [...changes.bindings, owner]);
      }
    });
  }

  async release(owner: string): Promise<number> {
    // A leased delivery is always due, so the `next_attempt_at` index finds it (lease_owner has no index of its own).
    const sql =
      'UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL WHERE next_attempt_at IS NOT NULL AND lease_owner = ?';
    return (await this.db.run(sql, [owner])).changes;
  }

  async hold(subscriptionId: string): Promise<number> {
    return (
      await this.db.run(
        `UPDATE webhook_deliveries SET status = 'held', next_attempt_at = NULL WHERE subscription_id = ? AND status IN ('pending', 'failed')`,
        [subscriptionId],
      )
    ).changes;
  }

  async requeueUndelivered(subscriptionId: string, now: string): Promise<number> {
    return (
      await this.db.run(
        `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = ? WHERE subscription_id = ? AND status IN ('held', 'dead')`,
        [now, subscriptionId],
      )
    ).changes;
  }
}

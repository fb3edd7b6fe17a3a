import type { AttemptOutcome, ClaimedDelivery, DeliverySnapshot, WebhookDeliveryRepository } from '@fundi/domain';
import { PLAN_PER_CALL, type SqlDb } from '../db/sql-db.js';
import { eventOf } from './sql-audit-outbox.js';
import { chunks, marks, objectMaker, valuesList, type Row } from '../db/sql-helpers.js';
import { ATTEMPT_COLUMNS, DELIVERY_COLUMNS, attemptToRow, deliveryToRow, rowToDelivery } from './webhook-rows.js';

const INSERT_PREFIX = `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS.join(', ')}) VALUES `;
// `next_attempt_at` is non-null exactly for due statuses (pending, failed), which keeps the claim one index walk.
const DUE = 'next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)';
const CLAIMED_COLUMNS = `d.*, e.type AS e_type, e.occurred_at AS e_occurred_at, e.data AS e_data,
  s.url AS s_url, s.enabled AS s_enabled, s.secret_ciphertext AS s_secret, s.previous_secret_ciphertext AS s_previous,
  s.previous_secret_expires_at AS s_previous_expires`;
const JOINED = 'JOIN outbox_events e ON e.id = d.event_id JOIN webhook_subscriptions s ON s.id = d.subscription_id';
const CLAIMED_WITH = `SELECT ${CLAIMED_COLUMNS} FROM webhook_deliveries d ${JOINED} WHERE d.id IN `;
// `OFFSET 0` keeps the event lookup a per-row primary-key probe: with stale statistics (a young, fast-growing
// outbox) the planner would otherwise hash-join against a scan of the whole outbox on every claim.
const PG_JOINED = `JOIN LATERAL (SELECT type, occurred_at, data FROM outbox_events WHERE id = d.event_id OFFSET 0) e ON true
  JOIN webhook_subscriptions s ON s.id = d.subscription_id`;
/**
 * Postgres: pick (SKIP LOCKED), lease and read in one statement, one round trip, planned per call (a prepared
 * statement's generic plan, made once while the table was small, would be kept as it grows). The pick first takes
 * the ids of the first due deliveries without locking (a bounded top-N sort of narrow rows, however the planner
 * reaches them), then locks among those: with the lock in the same query the sort had to order every due row,
 * whole, on each claim (the planner, without statistics, expects a handful of due rows and reads them all). The
 * candidates are twice the claim, so a claim running beside this one takes from the same front without starving
 * it. Both steps reach rows by their physical address (`ctid = ANY(array)`, a TID scan), never by a search whatever
 * the statistics: `UPDATE ... FROM picked` was planned, on a young table never analyzed, as a hash join over a scan
 * of every delivery, and `id = ANY(array)` costs an index descent per id (about 1.5 ms of a 2 ms claim of 128). A
 * row another worker changed between the two steps has a new address, so the lock step skips it.
 */
const PG_CLAIM = `${PLAN_PER_CALL}WITH picked AS (SELECT ctid FROM webhook_deliveries
    WHERE ctid = ANY(ARRAY(SELECT ctid FROM webhook_deliveries WHERE ${DUE} ORDER BY next_attempt_at LIMIT ?))
    AND ${DUE} ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED),
  leased AS (UPDATE webhook_deliveries w SET lease_owner = ?, lease_until = ? WHERE w.ctid = ANY(ARRAY(SELECT ctid FROM picked)) RETURNING w.*)
  SELECT ${CLAIMED_COLUMNS} FROM leased d ${PG_JOINED}`;
/** SQLite: pick and lease in one statement (one writer, so no locking clause is needed). */
const SQLITE_LEASE = `UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ?
  WHERE id IN (SELECT id FROM webhook_deliveries WHERE ${DUE} ORDER BY next_attempt_at LIMIT ?) RETURNING id`;

/**
 * Postgres reads a batch of rows as one JSON parameter (`json_to_recordset`): one short statement text whatever the
 * batch size, so it is parsed once and costs little to plan, where a VALUES list of 64 x 18 parameters took longer
 * to plan (each list length a statement of its own) than to run.
 */
const recordset = (columns: readonly string[], types: Record<string, string>) =>
  `json_to_recordset(CAST(? AS json)) AS r(${columns.map((c) => `${c} ${types[c] ?? 'text'}`).join(', ')})`;
const objectMakers = new Map<readonly string[], ReturnType<typeof objectMaker>>();
/** The rows as one JSON array of objects keyed by column, each made by the column list's `objectMaker`. */
function asJson(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  let make = objectMakers.get(columns);
  if (!make) objectMakers.set(columns, (make = objectMaker(columns)));
  return JSON.stringify(rows.map(make));
}
const PG_INSERT_DELIVERIES = `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS.join(', ')})
  SELECT ${DELIVERY_COLUMNS.join(', ')} FROM ${recordset(DELIVERY_COLUMNS, { attempts: 'integer', last_status_code: 'integer' })}`;
const ATTEMPT_TYPES = { attempt: 'integer', status_code: 'integer', latency_ms: 'integer' };
const CHANGE_COLUMNS = ['id', 'status', 'attempts', 'next_attempt_at', 'last_status_code', 'delivered_at'] as const;
/**
 * Postgres: the attempts and every delivery's new state in one statement, planned per call. The deliveries are
 * reached by primary key whatever the statistics: their ids are given as a set (`= ANY(ARRAY(...))`, planned as an
 * index probe of a few rows, where a join to the changes on a young table without statistics was planned as a scan
 * of every delivery), and the lease owner is compared as an expression (`|| ''`), never an index choice.
 */
const PG_SAVE_OUTCOMES = `${PLAN_PER_CALL}WITH logged AS (INSERT INTO webhook_attempts (${ATTEMPT_COLUMNS.join(', ')})
    SELECT ${ATTEMPT_COLUMNS.join(', ')} FROM ${recordset(ATTEMPT_COLUMNS, ATTEMPT_TYPES)}),
  v AS (SELECT * FROM ${recordset(CHANGE_COLUMNS, { attempts: 'integer', last_status_code: 'integer' })})
  UPDATE webhook_deliveries SET status = v.status, attempts = v.attempts, next_attempt_at = v.next_attempt_at,
  last_status_code = v.last_status_code, delivered_at = v.delivered_at, lease_owner = NULL, lease_until = NULL
  FROM v WHERE webhook_deliveries.id = v.id AND webhook_deliveries.id = ANY(ARRAY(SELECT id FROM v))
  AND webhook_deliveries.lease_owner || '' = ?`;

const insertAttempts = (n: number) =>
  `INSERT INTO webhook_attempts (${ATTEMPT_COLUMNS.join(', ')}) VALUES ${valuesList(n, ATTEMPT_COLUMNS.length)}`;
/**
 * SQLite: every delivery's own new state in one UPDATE, a VALUES list joined on id (`UPDATE ... FROM`), the rows
 * reached by primary key (`id IN (SELECT id FROM v)`).
 */
const sqliteChanges = (n: number) =>
  `WITH v(id, status, attempts, next_attempt_at, last_status_code, delivered_at) AS (VALUES ${valuesList(n, 6)})
  UPDATE webhook_deliveries SET status = v.status, attempts = CAST(v.attempts AS INTEGER),
  next_attempt_at = v.next_attempt_at, last_status_code = CAST(v.last_status_code AS INTEGER), delivered_at = v.delivered_at,
  lease_owner = NULL, lease_until = NULL FROM v WHERE webhook_deliveries.id = v.id
  AND webhook_deliveries.id IN (SELECT id FROM v) AND webhook_deliveries.lease_owner || '' = ?`;
const changeToRow = ({ attempt: a, change: c }: AttemptOutcome) => [
  a.deliveryId,
  c.status,
  c.attempts,
  c.nextAttemptAt,
  c.lastStatusCode,
  c.deliveredAt,
];

export class SqlWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly db: SqlDb) {}

  async insertMany(deliveries: readonly DeliverySnapshot[]): Promise<void> {
    if (this.db.dialect.name === 'postgres') {
      for (const part of chunks(deliveries, 5000))
        await this.db.run(PG_INSERT_DELIVERIES, [asJson(DELIVERY_COLUMNS, part.map(deliveryToRow))]);
      return;
    }
    for (const part of chunks(deliveries, 500)) {
      await this.db.run(INSERT_PREFIX + valuesList(part.length, DELIVERY_COLUMNS.length), part.flatMap(deliveryToRow));
    }
  }

  async findById(tenantId: string, subscriptionId: string, id: string): Promise<DeliverySnapshot | null> {
    const row = await this.db.first<Row>(
      'SELECT * FROM webhook_deliveries WHERE tenant_id = ? AND subscription_id = ? AND id = ?',
      [tenantId, subscriptionId, id],
    );
    return row ? rowToDelivery(row) : null;
  }

  /** With writable CTEs (Postgres): one statement, autocommit. Without (SQLite): lease, then read, in one transaction. */
  async claimDue(owner: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    if (this.db.dialect.writableCte)
      return (await this.db.all<Row>(PG_CLAIM, [now, now, 2 * limit, now, now, limit, owner, leaseUntil])).map(
        claimedOf,
      );
    return this.db.transaction(async (tx) => {
      const ids = (await tx.all<{ id: string }>(SQLITE_LEASE, [owner, leaseUntil, now, now, limit])).map((r) => r.id);
      return ids.length === 0 ? [] : (await tx.all<Row>(`${CLAIMED_WITH}(${marks(ids.length)})`, ids)).map(claimedOf);
    });
  }

  /** Postgres: one statement, autocommit (the attempt INSERT rides in a CTE). SQLite: two per 500, in one transaction. */
  async saveOutcomes(owner: string, outcomes: readonly AttemptOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    if (this.db.dialect.name === 'postgres') {
      await this.db.run(PG_SAVE_OUTCOMES, [
        asJson(
          ATTEMPT_COLUMNS,
          outcomes.map((o) => attemptToRow(o.attempt)),
        ),
        asJson(CHANGE_COLUMNS, outcomes.map(changeToRow)),
        owner,
      ]);
      return;
    }
    await this.db.transaction(async (tx) => {
      for (const part of chunks(outcomes, 500)) {
        await tx.run(
          insertAttempts(part.length),
          part.flatMap((o) => attemptToRow(o.attempt)),
        );
        await tx.run(sqliteChanges(part.length), [...part.flatMap(changeToRow), owner]);
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

function claimedOf(r: Row): ClaimedDelivery {
  return {
    delivery: rowToDelivery(r),
    event: eventOf({
      id: String(r.event_id),
      tenant_id: String(r.tenant_id),
      type: String(r.e_type),
      occurred_at: String(r.e_occurred_at),
      data: String(r.e_data),
    }),
    subscription: {
      url: String(r.s_url),
      enabled: Boolean(r.s_enabled),
      secretCiphertext: String(r.s_secret),
      previousSecretCiphertext: (r.s_previous as string | null) ?? null,
      previousSecretExpiresAt: (r.s_previous_expires as string | null) ?? null,
    },
  };
}

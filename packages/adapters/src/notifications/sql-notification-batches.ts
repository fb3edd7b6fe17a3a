import { withoutDetails, type NotificationSnapshot } from '@fundi/domain/notifications';
import { PLAN_PER_CALL, type SqlDb } from '../db/sql-db.js';
import { chunks } from '../db/sql-helpers.js';
import { COLUMNS, toRow } from './sql-notification-rows.js';

// The batched writes of SqlNotificationRepository (sql-notifications.ts): many notifications per statement.

/** Rows per UPDATE of outcomes: well under SQLite's limit of bound values. */
const UPDATE_CHUNK = 400;
const INSERT = `${PLAN_PER_CALL}INSERT INTO notifications (${COLUMNS.join(', ')}) `;
const TYPES = { attempts: 'integer' } as const;

/** SqlNotificationRepository.insertMany: the notifications inserted (those whose dedupe key was new). */
export async function insertNotifications(
  db: SqlDb,
  ns: readonly NotificationSnapshot[],
): Promise<NotificationSnapshot[]> {
  if (ns.length === 0) return [];
  const inserted = new Set<string>();
  // RETURNING is a write: on SQLite it must run on the writer, so outside a transaction open one (a transaction
  // already open is joined).
  await db.transaction(async (tx) => {
    for (const part of chunks(ns, tx.dialect.rowsPerStatement(COLUMNS.length))) {
      const rows = tx.dialect.rows(COLUMNS, part.map(toRow), TYPES);
      if (part.every((n) => n.dedupeKey === null)) {
        // Nothing to deduplicate (API sends): a plain insert, without the conflict check's speculative insertion.
        await tx.run(INSERT + rows.sql, rows.bindings);
        for (const n of part) inserted.add(n.id);
        continue;
      }
      // The conflict target names the predicate of the partial unique index of (tenant_id, dedupe_key) `WHERE
      // dedupe_key IS NOT NULL` (migration `notifications/202611281953-dedupe-index`), which only a target that names
      // it can use; it matched the full index it replaced as well.
      const returned = await tx.all<{ id: string }>(
        `${INSERT}${rows.sql} ON CONFLICT (tenant_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING RETURNING id`,
        rows.bindings,
      );
      for (const r of returned) inserted.add(r.id);
    }
  });
  return ns.filter((n) => inserted.has(n.id));
}

const OUTCOME_COLUMNS = ['id', 'status', 'history', 'bare_history', 'attempts', 'pmid', 'keep_content', 'updated_at'];
const OUTCOME_TYPES = { attempts: 'integer', keep_content: 'integer' } as const;

/** SqlNotificationRepository.updateOutcomes: the outcomes of sending, for notifications still queued. */
export async function updateNotificationOutcomes(
  db: SqlDb,
  tenantId: string,
  ns: readonly NotificationSnapshot[],
): Promise<void> {
  // One statement per chunk: a worker sending a batch writes its outcomes in one round trip, not one per row. The
  // rows are reached by primary key whatever the statistics: the ids are also given as a set (`Dialect.amongPicked`,
  // which Postgres plans as an index probe of unknown small size), and the tenant is compared as an expression
  // (`|| ''`) so its index cannot be chosen. Without this, Postgres joined a young table's every row to the list.
  // The outcomes are `Dialect.rows` (on Postgres one JSON parameter, not 8 per notification). What the statement
  // does not need is not sent: the content only says whether it is kept (an erasure's redaction clears it), and the
  // history without details goes only where it differs from the history (a notification without an address).
  for (const chunk of chunks(ns, Math.min(UPDATE_CHUNK, db.dialect.rowsPerStatement(OUTCOME_COLUMNS.length)))) {
    const v = db.dialect.rows(
      OUTCOME_COLUMNS,
      chunk.map((n) => {
        const history = JSON.stringify(n.history);
        const bare = n.history.every((e) => e.detail === null) ? null : JSON.stringify(withoutDetails(n.history));
        return [n.id, n.status, history, bare, n.attempts, n.providerMessageId, n.content ? 1 : 0, n.updatedAt];
      }),
      OUTCOME_TYPES,
    );
    await db.run(
      `${PLAN_PER_CALL}WITH v (${OUTCOME_COLUMNS.join(', ')}) AS (${v.sql})
         UPDATE notifications SET status = v.status, attempts = CAST(v.attempts AS INTEGER),
           history = CASE WHEN notifications.to_address IS NULL THEN COALESCE(v.bare_history, v.history) ELSE v.history END,
           provider_message_id = v.pmid, updated_at = v.updated_at,
           content = CASE WHEN v.keep_content = 0 THEN NULL ELSE notifications.content END
         FROM v WHERE notifications.id = v.id AND ${db.dialect.amongPicked('notifications.id', 'SELECT id FROM v')}
           AND notifications.tenant_id || '' = ? AND notifications.status = 'queued'`,
      [...v.bindings, tenantId],
    );
  }
}

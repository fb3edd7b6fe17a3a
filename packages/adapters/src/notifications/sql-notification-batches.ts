import { withoutDetails, type NotificationSnapshot } from '@fundi/domain';
import { PLAN_PER_CALL, type SqlDb } from '../db/sql-db.js';
import { COLUMNS, toRow } from './sql-notification-rows.js';

// The batched writes of SqlNotificationRepository (sql-notifications.ts): many notifications per statement.

/** Rows per INSERT: well under SQLite's limit of bound values. */
const INSERT_CHUNK = 400;
const ROW_MARKS = `(${COLUMNS.map(() => '?').join(', ')})`;

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
    if (tx.dialect.name === 'postgres') {
      // One array per column (unnest): binding 17 arrays is far cheaper for Postgres than thousands of values.
      const values = ns.map(toRow);
      const columns = COLUMNS.map((_, c) => values.map((r) => r[c] ?? null));
      const types = COLUMNS.map((c) => (c === 'attempts' ? 'integer[]' : 'text[]'));
      const select = `SELECT * FROM unnest(${types.map((t) => `?::${t}`).join(', ')})`;
      const all = ns.every((n) => n.dedupeKey === null);
      const sql = `${PLAN_PER_CALL}INSERT INTO notifications (${COLUMNS.join(', ')}) ${select}`;
      if (all) {
        await tx.run(sql, columns as never);
        for (const n of ns) inserted.add(n.id);
      } else {
        const rows = await tx.all<{ id: string }>(
          `${sql} ON CONFLICT (tenant_id, dedupe_key) DO NOTHING RETURNING id`,
          columns as never,
        );
        for (const r of rows) inserted.add(r.id);
      }
      return;
    }
    for (let i = 0; i < ns.length; i += INSERT_CHUNK) {
      const chunk = ns.slice(i, i + INSERT_CHUNK);
      if (chunk.every((n) => n.dedupeKey === null)) {
        // Nothing to deduplicate (API sends): a plain insert, without the conflict check's speculative insertion.
        await tx.run(
          `${PLAN_PER_CALL}INSERT INTO notifications (${COLUMNS.join(', ')}) VALUES ${chunk.map(() => ROW_MARKS).join(', ')}`,
          chunk.flatMap(toRow),
        );
        for (const n of chunk) inserted.add(n.id);
        continue;
      }
      const rows = await tx.all<{ id: string }>(
        `${PLAN_PER_CALL}INSERT INTO notifications (${COLUMNS.join(', ')}) VALUES ${chunk.map(() => ROW_MARKS).join(', ')}
           ON CONFLICT (tenant_id, dedupe_key) DO NOTHING RETURNING id`,
        chunk.flatMap(toRow),
      );
      for (const r of rows) inserted.add(r.id);
    }
  });
  return ns.filter((n) => inserted.has(n.id));
}

/** SqlNotificationRepository.updateOutcomes: the outcomes of sending, for notifications still queued. */
export async function updateNotificationOutcomes(
  db: SqlDb,
  tenantId: string,
  ns: readonly NotificationSnapshot[],
): Promise<void> {
  // One statement per chunk: a worker sending a batch writes its outcomes in one round trip, not one per row. The
  // rows are reached by primary key whatever the statistics: the ids are also given as a set (`= ANY(ARRAY(...))`,
  // which Postgres plans as an index probe of unknown small size), and the tenant is compared as an expression
  // (`|| ''`) so its index cannot be chosen. Without this, Postgres joined a young table's every row to the list.
  for (let i = 0; i < ns.length; i += INSERT_CHUNK) {
    const chunk = ns.slice(i, i + INSERT_CHUNK);
    await db.run(
      `${PLAN_PER_CALL}WITH v (id, status, history, bare_history, attempts, pmid, content, updated_at) AS (VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')})
         UPDATE notifications SET status = v.status, attempts = CAST(v.attempts AS INTEGER),
           history = CASE WHEN notifications.to_address IS NULL THEN v.bare_history ELSE v.history END,
           provider_message_id = v.pmid, updated_at = v.updated_at,
           content = CASE WHEN v.content IS NULL THEN NULL ELSE notifications.content END
         FROM v WHERE notifications.id = v.id AND notifications.id ${db.dialect.name === 'postgres' ? '= ANY(ARRAY(SELECT id FROM v))' : 'IN (SELECT id FROM v)'}
           AND notifications.tenant_id || '' = ? AND notifications.status = 'queued'`,
      [
        ...chunk.flatMap((n) => [
          n.id,
          n.status,
          JSON.stringify(n.history),
          JSON.stringify(withoutDetails(n.history)),
          String(n.attempts),
          n.providerMessageId,
          n.content ? JSON.stringify(n.content) : null,
          n.updatedAt,
        ]),
        tenantId,
      ],
    );
  }
}

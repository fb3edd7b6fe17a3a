import type { DomainEvent } from '@fundi/domain';
import { EXPANDED_AT, type OutboxFeed } from '@fundi/domain/webhooks';
import type { Knex } from 'knex';
import { compile } from '../db/query-builder.js';
import type { SqlDb } from '../db/sql-db.js';
import { EVENT_ROWS, eventOf, insertEventRows, leanEventOf } from './sql-outbox.js';
import { chunks, marks } from '../db/sql-helpers.js';

/** The outbox as the dispatcher and replays read it (the platform's table, written by the audit and outbox writer). */
export class SqlOutboxFeed implements OutboxFeed {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  /**
   * The first `limit` events of the queue (`outbox_pending`), whose ids leave it here: the event rows themselves
   * are not written again. `at` is not stored (the queue is all the state a fan-out needs).
   */
  async takeUndispatched(limit: number, _at: string, withData?: readonly string[]): Promise<DomainEvent[]> {
    const lean = withData ? this.db.dialect.inTexts(withData) : null;
    // A learner's event carries the whole learner (about a kilobyte): not read where nobody reads it.
    const columns = lean
      ? `e.id, e.tenant_id, e.type, e.occurred_at, e.subject_id, CASE WHEN e.type ${lean.sql} OR e.subject_id IS NULL THEN e.data END AS data`
      : 'e.*';
    const rows = await this.db.dialect.takeWithSkipLocked<Record<string, string | null>>(this.db, {
      queue: 'outbox_pending',
      key: 'id',
      limit,
      read: (taken) => `SELECT ${columns} FROM outbox_events e WHERE ${taken('e.id')} ORDER BY e.id`,
      readBindings: lean?.bindings ?? [],
    });
    return rows.map(lean ? leanEventOf : eventOf);
  }

  async anyUndispatched(): Promise<boolean> {
    return (await this.db.first('SELECT 1 AS one FROM outbox_pending LIMIT 1')) !== undefined;
  }

  async since(
    tenantId: string,
    since: string,
    types: readonly string[],
    afterId: string | null,
    limit: number,
  ): Promise<DomainEvent[]> {
    if (types.length === 0) return [];
    const q = this.qb('outbox_events')
      .select('*')
      .where('tenant_id', tenantId)
      .where('occurred_at', '>=', since)
      .whereIn('type', [...types])
      .orderBy('id')
      .limit(limit);
    if (afterId) q.where('id', '>', afterId);
    const { sql, bindings } = compile(q);
    return (await this.db.all<Record<string, string | null>>(sql, bindings)).map(eventOf);
  }

  async findById(tenantId: string, id: string): Promise<DomainEvent | null> {
    const row = await this.db.first<Record<string, string | null>>(
      'SELECT * FROM outbox_events WHERE tenant_id = ? AND id = ?',
      [tenantId, id],
    );
    return row ? eventOf(row) : null;
  }

  async addDispatched(events: readonly DomainEvent[]): Promise<void> {
    for (const part of chunks(events, EVENT_ROWS)) await insertEventRows(this.db, part);
  }

  async markExpanded(tenantId: string, id: string, data: Record<string, unknown>): Promise<boolean> {
    // On Postgres a second transaction waits for the first's row lock, then finds the row marked: 0 rows.
    const { changes } = await this.db.run(
      `UPDATE outbox_events SET data = ? WHERE tenant_id = ? AND id = ? AND data NOT LIKE '%"${EXPANDED_AT}"%'`,
      [JSON.stringify(data), tenantId, id],
    );
    return changes === 1;
  }

  async findMany(ids: readonly string[]): Promise<DomainEvent[]> {
    const found: DomainEvent[] = [];
    for (const part of chunks(ids, 500)) {
      const rows = await this.db.all<Record<string, string | null>>(
        `SELECT * FROM outbox_events WHERE id IN (${marks(part.length)}) ORDER BY id`,
        part,
      );
      found.push(...rows.map(eventOf));
    }
    return found;
  }
}

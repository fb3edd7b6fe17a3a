import {
  EXPANDED_AT,
  type AttemptSnapshot,
  type DomainEvent,
  type OutboxFeed,
  type Page,
  type PageRequest,
  type TenantAlert,
  type TenantAlertLog,
  type WebhookAttemptLog,
} from '@fundi/domain';
import type { Knex } from 'knex';
import { compile } from '../db/query-builder.js';
import type { SqlDb } from '../db/sql-db.js';
import { EVENT_ROWS, eventOf, insertEventRows, leanEventOf } from './sql-audit-outbox.js';
import { chunks, marks, type Row } from '../db/sql-helpers.js';
import { rowToAttempt } from './webhook-rows.js';

export class SqlWebhookAttemptLog implements WebhookAttemptLog {
  constructor(private readonly db: SqlDb) {}

  /** Newest first (the shared paging helper orders ascending, so this list pages on its own). */
  async list(tenantId: string, subscriptionId: string, page: PageRequest): Promise<Page<AttemptSnapshot>> {
    const where = 'tenant_id = ? AND subscription_id = ?';
    const total = await this.db.first<{ n: number }>(`SELECT count(*) AS n FROM webhook_attempts WHERE ${where}`, [
      tenantId,
      subscriptionId,
    ]);
    const rows =
      page.kind === 'cursor'
        ? await this.db.all<Row>(`SELECT * FROM webhook_attempts WHERE ${where} AND id < ? ORDER BY id DESC LIMIT ?`, [
            tenantId,
            subscriptionId,
            page.after ?? '~',
            page.limit + 1,
          ])
        : await this.db.all<Row>(`SELECT * FROM webhook_attempts WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`, [
            tenantId,
            subscriptionId,
            page.limit + 1,
            page.offset,
          ]);
    return {
      items: rows.slice(0, page.limit).map(rowToAttempt),
      total: Number(total?.n ?? 0),
      hasMore: rows.length > page.limit,
    };
  }

  async forgetResponses(tenantId: string, eventIds: readonly string[]): Promise<number> {
    let changed = 0;
    for (const part of chunks(eventIds, 500)) {
      const sql = `UPDATE webhook_attempts SET response_excerpt = NULL WHERE tenant_id = ? AND response_excerpt IS NOT NULL AND event_id IN (${marks(part.length)})`;
      changed += (await this.db.run(sql, [tenantId, ...part])).changes;
    }
    return changed;
  }
}

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

export class SqlTenantAlertLog implements TenantAlertLog {
  constructor(private readonly db: SqlDb) {}

  async add(a: TenantAlert): Promise<void> {
    await this.db.run(
      'INSERT INTO tenant_alerts (id, tenant_id, kind, message, created_at, read_at) VALUES (?, ?, ?, ?, ?, ?)',
      [a.id, a.tenantId, a.kind, a.message, a.createdAt, a.readAt],
    );
  }

  async list(tenantId: string, limit: number): Promise<TenantAlert[]> {
    const rows = await this.db.all<Row>('SELECT * FROM tenant_alerts WHERE tenant_id = ? ORDER BY id DESC LIMIT ?', [
      tenantId,
      limit,
    ]);
    return rows.map((r) => ({
      id: String(r.id),
      tenantId: String(r.tenant_id),
      kind: String(r.kind),
      message: String(r.message),
      createdAt: String(r.created_at),
      readAt: (r.read_at as string | null) ?? null,
    }));
  }
}

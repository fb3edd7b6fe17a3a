import type { DomainEvent, Outbox } from '@fundi/domain';
import { unreadEventData } from '@fundi/domain/webhooks';
import type { Knex } from 'knex';
import type { Binding, SqlDb } from '../db/sql-db.js';
import { compile } from '../db/query-builder.js';

type Row = Record<string, string | null>;

/**
 * An event read back. Its `data` is parsed when first read: the dispatcher takes thousands of events at a time and
 * most need only their ids and types (a `learner.created` event carries a whole learner, about a kilobyte).
 */
export const eventOf = (r: Row): DomainEvent => readEvent(r, false);

/** An event taken without its data (`OutboxFeed.takeUndispatched` with `withData` not naming its type). */
export const leanEventOf = (r: Row): DomainEvent => readEvent(r, r.data == null);

function readEvent(r: Row, lean: boolean): DomainEvent {
  const text = r.data ?? '{}';
  let data: Record<string, unknown> | undefined;
  return {
    id: r.id!,
    tenantId: r.tenant_id!,
    type: r.type!,
    occurredAt: r.occurred_at!,
    get data() {
      if (!data && lean) throw unreadEventData({ id: r.id!, type: r.type! });
      data ??= JSON.parse(text) as Record<string, unknown>;
      return data;
    },
    set data(v) {
      data = v;
    },
    ...(r.subject_id ? { subjectId: r.subject_id } : {}),
  };
}

export const INSERT_EVENT = 'INSERT INTO outbox_events (id, tenant_id, type, occurred_at, data, subject_id)';
const ADD_EVENT_AND_PENDING = `WITH e AS (${INSERT_EVENT} VALUES (?, ?, ?, ?, ?, ?) RETURNING id) INSERT INTO outbox_pending (id) SELECT id FROM e`;

/** An event's values in the order of `INSERT_EVENT`'s columns. */
export const eventValues = (e: DomainEvent): Binding[] => [
  e.id,
  e.tenantId,
  e.type,
  e.occurredAt,
  JSON.stringify(e.data),
  e.subjectId ?? null,
];

/**
 * The event, and its id in the dispatcher's queue (`outbox_pending`): one statement where INSERT ... RETURNING may
 * be a CTE (Postgres, one round trip fewer per write), two otherwise.
 */
export async function addEvent(db: SqlDb, e: DomainEvent): Promise<void> {
  const values = eventValues(e);
  if (db.dialect.writableCte) {
    await db.run(ADD_EVENT_AND_PENDING, values);
    return;
  }
  await db.run(`${INSERT_EVENT} VALUES (?, ?, ?, ?, ?, ?)`, values);
  await db.run('INSERT INTO outbox_pending (id) VALUES (?)', [e.id]);
}

/** Event rows per INSERT: 500 rows x 6 values stays under SQLite's bound-parameter limit. */
export const EVENT_ROWS = 500;

/** Writes up to `EVENT_ROWS` events' rows (not their place in the dispatcher's queue) in one statement. */
export async function insertEventRows(db: SqlDb, events: readonly DomainEvent[]): Promise<void> {
  await db.run(
    `INSERT INTO outbox_events (id, tenant_id, type, occurred_at, data, subject_id) VALUES ${events.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
    events.flatMap(eventValues),
  );
}

export class SqlOutbox implements Outbox {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  add(e: DomainEvent): Promise<void> {
    return addEvent(this.db, e);
  }

  async addMany(events: readonly DomainEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += EVENT_ROWS) {
      const chunk = events.slice(i, i + EVENT_ROWS);
      await insertEventRows(this.db, chunk);
      await this.db.run(
        `INSERT INTO outbox_pending (id) VALUES ${chunk.map(() => '(?)').join(', ')}`,
        chunk.map((e) => e.id),
      );
    }
  }

  async redactSubject(tenantId: string, subjectId: string, data: Record<string, unknown>): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>(
      'SELECT id FROM outbox_events WHERE tenant_id = ? AND subject_id = ? ORDER BY id',
      [tenantId, subjectId],
    );
    if (rows.length)
      await this.db.run('UPDATE outbox_events SET data = ? WHERE tenant_id = ? AND subject_id = ?', [
        JSON.stringify(data),
        tenantId,
        subjectId,
      ]);
    return rows.map((r) => r.id);
  }

  async list(
    tenantId: string,
    filter: { since?: string; types?: readonly string[]; limit: number },
  ): Promise<DomainEvent[]> {
    const q = this.qb('outbox_events').select('*').where('tenant_id', tenantId).orderBy('id').limit(filter.limit);
    if (filter.since) q.where('occurred_at', '>=', filter.since);
    if (filter.types?.length) q.whereIn('type', [...filter.types]);
    const { sql, bindings } = compile(q);
    return (await this.db.all<Row>(sql, bindings)).map(eventOf);
  }
}

import {
  AUDIT_GENESIS,
  chainEntry,
  entryOfRow,
  type AuditEntry,
  type AuditLog,
  type DomainEvent,
  type Outbox,
  unreadEventData,
} from '@fundi/domain';
import type { Knex } from 'knex';
import type { SqlDb } from '../db/sql-db.js';
import { compile } from '../db/query-builder.js';
import { AUDIT_COLUMNS, auditRowValues, chainRowOf, type AuditRow } from '../audit/audit-rows.js';

type Row = Record<string, string | null>;

/**
 * The audit trail's writer: each entry is appended to its tenant's hash chain (`audit-chain.ts`). The tenant's
 * head row (`audit_heads`) is bumped first, which on Postgres locks it until the transaction ends, so concurrent
 * writers of one tenant append one after the other and the chain never forks.
 */
export class SqlAuditLog implements AuditLog {
  constructor(private readonly db: SqlDb) {}

  async record(e: AuditEntry): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(
        'INSERT INTO audit_heads (tenant_id, seq, hash) VALUES (?, 1, ?) ON CONFLICT (tenant_id) DO UPDATE SET seq = audit_heads.seq + 1',
        [e.tenantId, AUDIT_GENESIS],
      );
      const head = await tx.first<AuditRow>('SELECT seq, hash FROM audit_heads WHERE tenant_id = ?', [e.tenantId]);
      const { row, personal } = chainEntry(e, { seq: Number(head!.seq) - 1, hash: String(head!.hash) });
      await tx.run(`INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES (${AUDIT_PLACES})`, auditRowValues(row));
      if (personal)
        await tx.run(
          'INSERT INTO audit_personal (entry_id, tenant_id, learner_id, salt, data) VALUES (?, ?, ?, ?, ?)',
          [personal.entryId, personal.tenantId, personal.learnerId, personal.salt, personal.data],
        );
      await tx.run('UPDATE audit_heads SET hash = ? WHERE tenant_id = ?', [row.hash, e.tenantId]);
    });
  }

  async list(tenantId: string, filter: { resourceId?: string; limit: number }): Promise<AuditEntry[]> {
    const rows = filter.resourceId
      ? await this.db.all<AuditRow>(
          'SELECT * FROM audit_log WHERE tenant_id = ? AND resource_id = ? ORDER BY id DESC LIMIT ?',
          [tenantId, filter.resourceId, filter.limit],
        )
      : await this.db.all<AuditRow>('SELECT * FROM audit_log WHERE tenant_id = ? ORDER BY id DESC LIMIT ?', [
          tenantId,
          filter.limit,
        ]);
    return rows.map((r) => entryOfRow(chainRowOf(r)));
  }

  async forgetLearner(tenantId: string, learnerId: string): Promise<number> {
    const r = await this.db.run('DELETE FROM audit_personal WHERE tenant_id = ? AND learner_id = ?', [
      tenantId,
      learnerId,
    ]);
    return r.changes;
  }
}

const AUDIT_PLACES = AUDIT_COLUMNS.split(',')
  .map(() => '?')
  .join(', ');

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

/** Event rows per INSERT: 500 rows x 6 values stays under SQLite's bound-parameter limit. */
export const EVENT_ROWS = 500;

/** Writes up to `EVENT_ROWS` events' rows (not their place in the dispatcher's queue) in one statement. */
export async function insertEventRows(db: SqlDb, events: readonly DomainEvent[]): Promise<void> {
  await db.run(
    `INSERT INTO outbox_events (id, tenant_id, type, occurred_at, data, subject_id) VALUES ${events.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
    events.flatMap((e) => [e.id, e.tenantId, e.type, e.occurredAt, JSON.stringify(e.data), e.subjectId ?? null]),
  );
}

export class SqlOutbox implements Outbox {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  /** The event, and its id in the dispatcher's queue (`outbox_pending`). */
  async add(e: DomainEvent): Promise<void> {
    await this.db.run(
      'INSERT INTO outbox_events (id, tenant_id, type, occurred_at, data, subject_id) VALUES (?, ?, ?, ?, ?, ?)',
      [e.id, e.tenantId, e.type, e.occurredAt, JSON.stringify(e.data), e.subjectId ?? null],
    );
    await this.db.run('INSERT INTO outbox_pending (id) VALUES (?)', [e.id]);
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

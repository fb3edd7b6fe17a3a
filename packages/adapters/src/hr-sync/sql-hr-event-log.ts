import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type { HrEventEntry, HrEventLog } from '@fundi/domain/hr-sync';
import type { SqlDb } from '../db/sql-db.js';
import { str, type Row } from '../db/sql-helpers.js';
import { mapUnique } from '../db/conflicts.js';

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.parse(String(v)));

function rowToEntry(r: Row): HrEventEntry {
  return {
    id: String(r.id),
    tenantId: String(r.tenant_id),
    eventKey: String(r.event_key),
    hrEventId: str(r.hr_event_id),
    event: String(r.event),
    receivedAt: String(r.received_at),
    result: String(r.result) as HrEventEntry['result'],
    response: json(r.response),
    error: json(r.error),
    learnerId: str(r.learner_id),
    data: json(r.data),
    redacted: Boolean(r.redacted),
  };
}

const INSERT_EVENT = `INSERT INTO hr_events (id, tenant_id, event_key, processed_key, hr_event_id, event, received_at, result,
  response, error, learner_id, data, redacted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export class SqlHrEventLog implements HrEventLog {
  constructor(private readonly db: SqlDb) {}

  async add(e: HrEventEntry) {
    const text = (v: unknown) => (v === null ? null : JSON.stringify(v));
    await mapUnique(
      this.db.dialect,
      [
        {
          column: 'processed_key',
          error: () => DomainError.conflict('hr_event_duplicate', 'This event was already processed'),
        },
      ],
      () =>
        this.db.run(INSERT_EVENT, [
          e.id,
          e.tenantId,
          e.eventKey,
          e.result === 'processed' ? e.eventKey : null,
          e.hrEventId,
          e.event,
          e.receivedAt,
          e.result,
          text(e.response),
          text(e.error),
          e.learnerId,
          text(e.data),
          e.redacted,
        ]),
    );
  }

  async findProcessed(tenantId: string, eventKey: string) {
    const r = await this.db.first<Row>('SELECT * FROM hr_events WHERE tenant_id = ? AND processed_key = ?', [
      tenantId,
      eventKey,
    ]);
    return r ? rowToEntry(r) : null;
  }

  /** Newest first, like the webhook delivery log: a cursor continues below the last id. */
  async list(tenantId: string, page: PageRequest): Promise<Page<HrEventEntry>> {
    const total = await this.db.first<{ n: number }>('SELECT COUNT(*) AS n FROM hr_events WHERE tenant_id = ?', [
      tenantId,
    ]);
    const rows =
      page.kind === 'cursor'
        ? await this.db.all<Row>(
            `SELECT * FROM hr_events WHERE tenant_id = ?${page.after ? ' AND id < ?' : ''} ORDER BY id DESC LIMIT ?`,
            page.after ? [tenantId, page.after, page.limit + 1] : [tenantId, page.limit + 1],
          )
        : await this.db.all<Row>('SELECT * FROM hr_events WHERE tenant_id = ? ORDER BY id DESC LIMIT ? OFFSET ?', [
            tenantId,
            page.limit + 1,
            page.offset,
          ]);
    return {
      items: rows.slice(0, page.limit).map(rowToEntry),
      total: Number(total?.n ?? 0),
      hasMore: rows.length > page.limit,
    };
  }

  async redactLearner(tenantId: string, learnerId: string) {
    const { changes } = await this.db.run(
      // The body hash is derived from personal data (an ID number has little entropy): it goes too.
      `UPDATE hr_events SET data = NULL, redacted = ?, event_key = ${"'erased:' || id"},
        processed_key = CASE WHEN processed_key IS NULL THEN NULL ELSE ${"'erased:' || id"} END
        WHERE tenant_id = ? AND learner_id = ?`,
      [true, tenantId, learnerId],
    );
    return changes;
  }

  async pruneBefore(before: string, limit: number) {
    // The oldest entries by id (the primary key's order, which is receipt order): a bounded read, no index of its own.
    const pick =
      'SELECT id FROM (SELECT id, received_at FROM hr_events ORDER BY id LIMIT ?) oldest WHERE received_at < ?';
    const sql = `DELETE FROM hr_events WHERE ${this.db.dialect.amongPicked('id', pick)}`;
    return (await this.db.run(sql, [limit, before])).changes;
  }
}

import {
  AUDIT_GENESIS,
  chainEntry,
  entryColumns,
  type PersonalValues,
  entryOfRow,
  type AuditEntry,
  type AuditLog,
  type ChainRow,
} from '@fundi/domain/audit';
import type { DomainEvent } from '@fundi/domain';
import type { Binding, SqlDb } from '../db/sql-db.js';
import { addEvent, eventValues, INSERT_EVENT } from '../platform/sql-outbox.js';
import { AUDIT_COLUMNS, auditRowValues, chainRowOf, type AuditRow } from './audit-rows.js';

/**
 * The audit trail's writer: each entry is appended to its tenant's hash chain (`audit-chain.ts`), and the change's
 * events go to the outbox with it. Where triggers may be deferred to the commit (Postgres), the entry is written
 * without its place in the chain, in one statement with the events (and their ids in `outbox_pending`) and the
 * entry's personal values, and the migration `audit-chain-at-commit`'s trigger chains it as the transaction commits:
 * the tenant's head (`audit_heads`) is locked from there to the end of the commit only, never across a round trip
 * to this process. Elsewhere (SQLite, one writer at a time) the head is bumped, read, and the hash computed here.
 */
export class SqlAuditLog implements AuditLog {
  constructor(private readonly db: SqlDb) {}

  async record(e: AuditEntry, events: readonly DomainEvent[] = []): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (tx.dialect.deferredTriggers) {
        const { columns, personal } = entryColumns(e);
        // Up to JOINED_EVENTS events go into the entry's statement; more (bulk changes) are written before it.
        const joined = events.length <= JOINED_EVENTS ? events : [];
        if (joined !== events) for (const ev of events) await addEvent(tx, ev);
        const bindings: Binding[] = [];
        for (const ev of joined) bindings.push(...eventValues(ev));
        if (personal) bindings.push(...personalValues(personal));
        bindings.push(...unchainedValues(columns));
        await tx.run(unchainedStatement(joined.length, personal !== null), bindings);
        return;
      }
      for (const ev of events) await addEvent(tx, ev);
      await tx.run(
        'INSERT INTO audit_heads (tenant_id, seq, hash) VALUES (?, 1, ?) ON CONFLICT (tenant_id) DO UPDATE SET seq = audit_heads.seq + 1',
        [e.tenantId, AUDIT_GENESIS],
      );
      const head = await tx.first<AuditRow>('SELECT seq, hash FROM audit_heads WHERE tenant_id = ?', [e.tenantId]);
      const { row, personal } = chainEntry(e, { seq: Number(head!.seq) - 1, hash: String(head!.hash) });
      await tx.run(`INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES (${AUDIT_PLACES})`, auditRowValues(row));
      if (personal) await tx.run(INSERT_PERSONAL, personalValues(personal));
      await tx.run('UPDATE audit_heads SET hash = ?, prev_hash = ? WHERE tenant_id = ?', [
        row.hash,
        row.prevHash,
        e.tenantId,
      ]);
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

const INSERT_PERSONAL =
  'INSERT INTO audit_personal (entry_id, tenant_id, learner_id, salt, data) VALUES (?, ?, ?, ?, ?)';

const personalValues = (p: PersonalValues): Binding[] => [p.entryId, p.tenantId, p.learnerId, p.salt, p.data];

/** The most events written in the append's own statement; a change with more writes them before it. */
const JOINED_EVENTS = 8;

/** The chain's columns, which the commit's trigger writes. */
const CHAIN_COLUMNS = new Set(['seq', 'prev_hash', 'hash']);
/** Whether each of `AUDIT_COLUMNS` (the order of `auditRowValues`) is written without the chain. */
const UNCHAINED = AUDIT_COLUMNS.split(',').map((c) => !CHAIN_COLUMNS.has(c.trim()));
/** The columns of an entry written without its place in the chain: `AUDIT_COLUMNS` but the chain's. */
const UNCHAINED_COLUMNS = AUDIT_COLUMNS.split(',')
  .map((c) => c.trim())
  .filter((_, i) => UNCHAINED[i]);

const unchainedValues = (columns: Omit<ChainRow, 'hash' | 'prevHash' | 'seq'>): Binding[] =>
  auditRowValues({ ...columns, seq: 0, prevHash: '', hash: '' }).filter((_, i) => UNCHAINED[i]);

const unchained = new Map<string, string>();

/**
 * The entry without its place in the chain, which the commit's trigger gives it, in one statement with `events`
 * events (each with its id in `outbox_pending`) and the entry's personal values, as CTEs (Postgres runs every
 * data-modifying CTE once, to completion, whether or not the rest of the statement reads it). Bindings: each
 * event's `eventValues`, the personal values (`personalValues`), then `unchainedValues`.
 */
function unchainedStatement(events: number, personal: boolean): string {
  const key = `${events}${personal ? 'p' : ''}`;
  let sql = unchained.get(key);
  if (sql) return sql;
  const before: string[] = [];
  if (events > 0)
    before.push(
      `e AS (${INSERT_EVENT} VALUES ${Array.from({ length: events }, () => '(?, ?, ?, ?, ?, ?)').join(', ')} RETURNING id)`,
      'p AS (INSERT INTO outbox_pending (id) SELECT id FROM e)',
    );
  if (personal) before.push(`v AS (${INSERT_PERSONAL})`);
  sql = `${before.length ? `WITH ${before.join(', ')} ` : ''}INSERT INTO audit_log (${UNCHAINED_COLUMNS.join(', ')}) VALUES (${UNCHAINED_COLUMNS.map(() => '?').join(', ')})`;
  unchained.set(key, sql);
  return sql;
}

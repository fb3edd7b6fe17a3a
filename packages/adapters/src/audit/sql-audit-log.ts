import {
  AUDIT_GENESIS,
  chainEntry,
  chainTail,
  entryColumns,
  type PersonalValues,
  entryOfRow,
  type AuditEntry,
  type AuditLog,
} from '@fundi/domain/audit';
import type { DomainEvent } from '@fundi/domain';
import type { Binding, SqlDb } from '../db/sql-db.js';
import { addEvent, eventValues, INSERT_EVENT } from '../repos/sql-outbox.js';
import { AUDIT_COLUMNS, auditRowValues, chainRowOf, type AuditRow } from './audit-rows.js';

/**
 * The audit trail's writer: each entry is appended to its tenant's hash chain (`audit-chain.ts`). The tenant's
 * head row (`audit_heads`) is bumped first, which on Postgres locks it until the transaction ends, so concurrent
 * writers of one tenant append one after the other and the chain never forks. Where the database computes SHA-256
 * and takes writable CTEs (Postgres), the bump, the new hash and the entry's row are one statement, with the
 * change's events and the entry's personal values, so the head is locked for that statement and the commit only and
 * a change's audit and outbox rows cost one round trip; elsewhere (SQLite, one writer at a time) the previous hash is read
 * and the hash computed here.
 */
export class SqlAuditLog implements AuditLog {
  /** The one-statement append's texts by the number of events joined to it and whether it has personal values. */
  private readonly appends: Map<string, string> | null;
  private readonly sha: ((text: string) => string) | null;

  constructor(private readonly db: SqlDb) {
    this.sha = db.dialect.sha256Hex && db.dialect.writableCte ? db.dialect.sha256Hex : null;
    this.appends = this.sha ? new Map() : null;
  }

  async record(e: AuditEntry, events: readonly DomainEvent[] = []): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (this.sha) {
        const { columns, personal } = entryColumns(e);
        // Up to JOINED_EVENTS events go into the append's statement; more (bulk changes) are written before it.
        const joined = events.length <= JOINED_EVENTS ? events : [];
        if (joined !== events) for (const ev of events) await addEvent(tx, ev);
        const tail = chainTail(columns);
        const bindings: Binding[] = [];
        for (const ev of joined) bindings.push(...eventValues(ev));
        if (personal) bindings.push(...personalValues(personal));
        bindings.push(
          e.tenantId,
          AUDIT_GENESIS,
          tail,
          AUDIT_GENESIS,
          tail,
          ...auditRowValues({ ...columns, seq: 0, prevHash: '', hash: '' }).slice(5),
          columns.id,
          columns.tenantId,
        );
        await tx.run(this.appendFor(joined.length, personal !== null), bindings);
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

  private appendFor(events: number, personal: boolean): string {
    const key = `${events}${personal ? 'p' : ''}`;
    let sql = this.appends!.get(key);
    if (!sql) this.appends!.set(key, (sql = appendStatement(this.sha!, events, personal)));
    return sql;
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

/**
 * The one-statement append: the head's upsert bumps `seq`, keeps the old hash as `prev_hash` and computes the new
 * hash over `["<old hash>",<new seq>,<tail>` (`chainTail`: exactly the text `chainHash` hashes), and the entry's row
 * takes its `seq`, `prev_hash` and `hash` from the upsert's answer. In an upsert's SET, `h.` names the row as it was.
 * Before the head, as CTEs of their own (Postgres runs every data-modifying CTE once, to completion, whether or not
 * the rest of the statement reads it): the change's `events` with their ids in `outbox_pending`, and the entry's
 * personal values, which do not depend on the chain. The statement takes the head's lock, as the append alone did,
 * and holds it to the commit: a create is then BEGIN, its row, this, COMMIT.
 * Bindings: each event's `eventValues`, the personal values (`personalValues`), then tenant, genesis, tail (the
 * first entry's hash), genesis, tail (the next ones'), then the audit row's columns after `hash` (AUDIT_COLUMNS
 * order), then the row's id and tenant.
 */
function appendStatement(sha: (text: string) => string, events: number, personal: boolean): string {
  const columns = AUDIT_COLUMNS.split(',').map((c) => c.trim());
  const rest = columns.slice(5);
  const before: string[] = [];
  if (events > 0)
    before.push(
      `e AS (${INSERT_EVENT} VALUES ${Array.from({ length: events }, () => '(?, ?, ?, ?, ?, ?)').join(', ')} RETURNING id)`,
      'p AS (INSERT INTO outbox_pending (id) SELECT id FROM e)',
    );
  if (personal) before.push(`v AS (${INSERT_PERSONAL})`);
  return `WITH ${before.map((c) => `${c},\n  `).join('')}head AS (
    INSERT INTO audit_heads AS h (tenant_id, seq, hash, prev_hash) VALUES (?, 1, ${sha(`'["' || CAST(? AS text) || '",1,' || CAST(? AS text)`)}, ?)
    ON CONFLICT (tenant_id) DO UPDATE SET seq = h.seq + 1, prev_hash = h.hash,
      hash = ${sha(`'["' || h.hash || '",' || (h.seq + 1) || ',' || CAST(? AS text)`)}
    RETURNING seq, prev_hash, hash
  )
  INSERT INTO audit_log (${columns.slice(2).join(', ')}, id, tenant_id)
  SELECT head.seq, head.prev_hash, head.hash, ${rest.map(() => 'CAST(? AS text)').join(', ')}, CAST(? AS text), CAST(? AS text) FROM head`;
}

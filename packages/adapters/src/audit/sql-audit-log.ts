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
import type { SqlDb } from '../db/sql-db.js';
import { AUDIT_COLUMNS, auditRowValues, chainRowOf, type AuditRow } from './audit-rows.js';

/**
 * The audit trail's writer: each entry is appended to its tenant's hash chain (`audit-chain.ts`). The tenant's
 * head row (`audit_heads`) is bumped first, which on Postgres locks it until the transaction ends, so concurrent
 * writers of one tenant append one after the other and the chain never forks. Where the database computes SHA-256
 * and takes writable CTEs (Postgres), the bump, the new hash and the entry's row are one statement, so the head is
 * locked for that statement and the commit only; elsewhere (SQLite, one writer at a time) the previous hash is read
 * and the hash computed here.
 */
export class SqlAuditLog implements AuditLog {
  private readonly append: string | null;

  constructor(private readonly db: SqlDb) {
    const sha = db.dialect.sha256Hex;
    this.append = sha && db.dialect.writableCte ? appendStatement(sha) : null;
  }

  async record(e: AuditEntry): Promise<void> {
    await this.db.transaction(async (tx) => {
      const append = this.append;
      if (append) {
        const { columns, personal } = entryColumns(e);
        // The personal values first: they do not depend on the chain, and the head is then locked only for the append.
        if (personal) await insertPersonal(tx, personal);
        const tail = chainTail(columns);
        await tx.run(append, [
          e.tenantId,
          AUDIT_GENESIS,
          tail,
          AUDIT_GENESIS,
          tail,
          ...auditRowValues({ ...columns, seq: 0, prevHash: '', hash: '' }).slice(5),
          columns.id,
          columns.tenantId,
        ]);
        return;
      }
      await tx.run(
        'INSERT INTO audit_heads (tenant_id, seq, hash) VALUES (?, 1, ?) ON CONFLICT (tenant_id) DO UPDATE SET seq = audit_heads.seq + 1',
        [e.tenantId, AUDIT_GENESIS],
      );
      const head = await tx.first<AuditRow>('SELECT seq, hash FROM audit_heads WHERE tenant_id = ?', [e.tenantId]);
      const { row, personal } = chainEntry(e, { seq: Number(head!.seq) - 1, hash: String(head!.hash) });
      await tx.run(`INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES (${AUDIT_PLACES})`, auditRowValues(row));
      if (personal) await insertPersonal(tx, personal);
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

function insertPersonal(tx: SqlDb, p: PersonalValues): Promise<unknown> {
  return tx.run('INSERT INTO audit_personal (entry_id, tenant_id, learner_id, salt, data) VALUES (?, ?, ?, ?, ?)', [
    p.entryId,
    p.tenantId,
    p.learnerId,
    p.salt,
    p.data,
  ]);
}

/**
 * The one-statement append: the head's upsert bumps `seq`, keeps the old hash as `prev_hash` and computes the new
 * hash over `["<old hash>",<new seq>,<tail>` (`chainTail`: exactly the text `chainHash` hashes), and the entry's row
 * takes its `seq`, `prev_hash` and `hash` from the upsert's answer. In an upsert's SET, `h.` names the row as it was.
 * Bindings: tenant, genesis, tail (the first entry's hash), genesis, tail (the next ones'), then the audit row's
 * columns after `hash` (AUDIT_COLUMNS order), then the row's id and tenant.
 */
function appendStatement(sha: (text: string) => string): string {
  const columns = AUDIT_COLUMNS.split(',').map((c) => c.trim());
  const rest = columns.slice(5);
  return `WITH head AS (
    INSERT INTO audit_heads AS h (tenant_id, seq, hash, prev_hash) VALUES (?, 1, ${sha(`'["' || CAST(? AS text) || '",1,' || CAST(? AS text)`)}, ?)
    ON CONFLICT (tenant_id) DO UPDATE SET seq = h.seq + 1, prev_hash = h.hash,
      hash = ${sha(`'["' || h.hash || '",' || (h.seq + 1) || ',' || CAST(? AS text)`)}
    RETURNING seq, prev_hash, hash
  )
  INSERT INTO audit_log (${columns.slice(2).join(', ')}, id, tenant_id)
  SELECT head.seq, head.prev_hash, head.hash, ${rest.map(() => 'CAST(? AS text)').join(', ')}, CAST(? AS text), CAST(? AS text) FROM head`;
}

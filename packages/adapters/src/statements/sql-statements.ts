import type { Page, PageRequest } from '@fundi/domain';
import type { StatementRepository, StatementSnapshot } from '@fundi/domain/statements';
import type { SqlDb } from '../db/sql-db.js';

type Row = Record<string, string | number | null>;
const text = (v: string | number | null | undefined) => (v === null || v === undefined ? null : String(v));

const COLUMNS =
  'id, tenant_id, learner_id, enrolment_id, programme_code, programme_name, outcome, modules, verification_code, sha256, size, storage_key, holder, issued_at, issued_by, revoked_at, revoked_by, revoke_reason';
const PLACES = COLUMNS.split(',')
  .map(() => '?')
  .join(', ');

function statementOf(r: Row): StatementSnapshot {
  return {
    id: String(r.id),
    tenantId: String(r.tenant_id),
    learnerId: String(r.learner_id),
    enrolmentId: String(r.enrolment_id),
    programmeCode: String(r.programme_code),
    programmeName: String(r.programme_name),
    outcome: String(r.outcome) as StatementSnapshot['outcome'],
    modules: JSON.parse(String(r.modules)),
    verificationCode: String(r.verification_code),
    sha256: String(r.sha256),
    size: Number(r.size),
    storageKey: String(r.storage_key),
    holder: text(r.holder),
    issuedAt: String(r.issued_at),
    issuedBy: String(r.issued_by),
    revokedAt: text(r.revoked_at),
    revokedBy: text(r.revoked_by),
    revokeReason: text(r.revoke_reason),
  };
}

/** Statements of Results in SQL (`statements`). */
export class SqlStatementRepository implements StatementRepository {
  constructor(private readonly db: SqlDb) {}

  async insert(s: StatementSnapshot): Promise<void> {
    await this.db.run(`INSERT INTO statements (${COLUMNS}) VALUES (${PLACES})`, [
      s.id,
      s.tenantId,
      s.learnerId,
      s.enrolmentId,
      s.programmeCode,
      s.programmeName,
      s.outcome,
      JSON.stringify(s.modules),
      s.verificationCode,
      s.sha256,
      s.size,
      s.storageKey,
      s.holder,
      s.issuedAt,
      s.issuedBy,
      s.revokedAt,
      s.revokedBy,
      s.revokeReason,
    ]);
  }

  async findById(tenantId: string, id: string): Promise<StatementSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM statements WHERE tenant_id = ? AND id = ?', [tenantId, id]);
    return r ? statementOf(r) : null;
  }

  async findByCode(code: string): Promise<StatementSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM statements WHERE verification_code = ?', [code]);
    return r ? statementOf(r) : null;
  }

  async listForLearner(tenantId: string, learnerId: string, page: PageRequest): Promise<Page<StatementSnapshot>> {
    const where = 'tenant_id = ? AND learner_id = ?';
    const [total, rows] = await Promise.all([
      this.db.first<{ n: number | string }>(`SELECT COUNT(*) AS n FROM statements WHERE ${where}`, [
        tenantId,
        learnerId,
      ]),
      page.kind === 'cursor'
        ? this.db.all<Row>(`SELECT * FROM statements WHERE ${where} AND id < ? ORDER BY id DESC LIMIT ?`, [
            tenantId,
            learnerId,
            page.after ?? '~',
            page.limit + 1,
          ])
        : this.db.all<Row>(`SELECT * FROM statements WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`, [
            tenantId,
            learnerId,
            page.limit + 1,
            page.offset,
          ]),
    ]);
    return {
      items: rows.slice(0, page.limit).map(statementOf),
      total: Number(total?.n ?? 0),
      hasMore: rows.length > page.limit,
    };
  }

  async revoke(tenantId: string, id: string, r: { at: string; by: string; reason: string }): Promise<boolean> {
    const done = await this.db.run(
      'UPDATE statements SET revoked_at = ?, revoked_by = ?, revoke_reason = ? WHERE tenant_id = ? AND id = ? AND revoked_at IS NULL',
      [r.at, r.by, r.reason, tenantId, id],
    );
    return done.changes > 0;
  }

  async revokeForErasedLearner(tenantId: string, learnerId: string, at: string): Promise<string[]> {
    const open = await this.db.all<{ id: string }>(
      'SELECT id FROM statements WHERE tenant_id = ? AND learner_id = ? AND revoked_at IS NULL ORDER BY id',
      [tenantId, learnerId],
    );
    await this.db.run(
      "UPDATE statements SET revoked_at = COALESCE(revoked_at, ?), revoked_by = COALESCE(revoked_by, 'system'), revoke_reason = COALESCE(revoke_reason, 'learner_erased'), holder = NULL WHERE tenant_id = ? AND learner_id = ?",
      [at, tenantId, learnerId],
    );
    return open.map((r) => r.id);
  }
}

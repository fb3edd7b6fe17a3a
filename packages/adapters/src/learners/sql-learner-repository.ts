import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type { LearnerFilter, LearnerOrder, LearnerRepository, LearnerSnapshot } from '@fundi/domain/learners';
import type { Knex } from 'knex';
import { PLAN_PER_CALL, type SqlDb } from '../db/sql-db.js';
import { mapUnique } from '../db/conflicts.js';
import { LEARNER_COLUMNS, type LearnerRow, PERSONAL_COLUMNS, learnerToRow, rowToLearner } from './learner-rows.js';
import { LEARNER_UNIQUE, insertLearner, insertLearners } from './learner-inserts.js';
import { listLearners } from './learner-listing.js';
import { findTaken } from './learner-taken-values.js';

const UPDATABLE = LEARNER_COLUMNS.filter((c) => c !== 'id' && c !== 'tenant_id' && c !== 'created_at');
const UPDATE = `UPDATE learners SET ${UPDATABLE.map((c) => `${c} = ?`).join(', ')} WHERE tenant_id = ? AND id = ? AND erased_at IS NULL`;
const LIVE = 'tenant_id = ? AND erased_at IS NULL';
/** Written once: the statement cache finds a statement by its text, which a string built per call makes it hash again. */
const BY_ID = `SELECT * FROM learners WHERE ${LIVE} AND id = ?`;
const ERASE = `UPDATE learners SET ${PERSONAL_COLUMNS.map((c) => `${c} = NULL`).join(', ')}, erased_at = ?, updated_at = ? WHERE ${LIVE} AND id = ?`;

/** Learners on SQLite or Postgres. Fixed statements are written once; lists are composed with knex. */
export class SqlLearnerRepository implements LearnerRepository {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  insert(l: LearnerSnapshot): Promise<void> {
    return insertLearner(this.db, l);
  }

  insertMany(ls: readonly LearnerSnapshot[]): Promise<void> {
    return insertLearners(this.db, ls);
  }

  async update(l: LearnerSnapshot): Promise<void> {
    const row = learnerToRow(l);
    const { changes } = await mapUnique(this.db.dialect, LEARNER_UNIQUE, () =>
      this.db.run(UPDATE, [...UPDATABLE.map((c) => row[c]), l.tenantId, l.id]),
    );
    if (changes === 0) throw DomainError.notFound('learner', l.id);
  }

  findById(tenantId: string, id: string): Promise<LearnerSnapshot | null> {
    return this.one(BY_ID, [tenantId, id]);
  }

  async findByIds(tenantId: string, ids: readonly string[]): Promise<LearnerSnapshot[]> {
    const out: LearnerSnapshot[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      // By id alone, so the primary key is used (with the tenant in the WHERE, SQLite reads the tenant's index);
      // the tenant and erasure are checked on the rows.
      const rows = await this.db.all<LearnerRow>(
        `${PLAN_PER_CALL}SELECT * FROM learners WHERE id IN (${part.map(() => '?').join(', ')})`,
        part,
      );
      for (const r of rows) if (r.tenant_id === tenantId && r.erased_at == null) out.push(rowToLearner(r));
    }
    return out;
  }

  findByIdNumber(tenantId: string, idNumber: string): Promise<LearnerSnapshot | null> {
    return this.one(`SELECT * FROM learners WHERE ${LIVE} AND id_number = ?`, [tenantId, idNumber]);
  }

  findByEmail(tenantId: string, email: string): Promise<LearnerSnapshot | null> {
    return this.one(`SELECT * FROM learners WHERE ${LIVE} AND email_lower = ?`, [tenantId, email.toLowerCase()]);
  }

  findByEmployeeRef(tenantId: string, employeeRef: string): Promise<LearnerSnapshot | null> {
    return this.one(`SELECT * FROM learners WHERE ${LIVE} AND employee_ref = ? ORDER BY id LIMIT 1`, [
      tenantId,
      employeeRef,
    ]);
  }

  async findByMobile(tenantId: string, mobile: string, limit: number): Promise<LearnerSnapshot[]> {
    const rows = await this.db.all<Record<string, string | null>>(
      `SELECT * FROM learners WHERE ${LIVE} AND mobile = ? ORDER BY id LIMIT ?`,
      [tenantId, mobile, limit],
    );
    return rows.map((r) => rowToLearner(r));
  }

  findTaken(
    tenantId: string,
    idNumbers: readonly string[],
    emails: readonly string[],
    alternates: readonly string[] = [],
  ) {
    return findTaken(this.db, tenantId, idNumbers, emails, alternates);
  }

  list(
    tenantId: string,
    filter: LearnerFilter,
    page: PageRequest,
    order?: LearnerOrder,
  ): Promise<Page<LearnerSnapshot>> {
    return listLearners(this.db, this.qb, tenantId, filter, page, order);
  }

  async erase(tenantId: string, id: string, at: string): Promise<boolean> {
    const { changes } = await this.db.run(ERASE, [at, at, tenantId, id]);
    return changes > 0;
  }

  private async one(sql: string, bindings: string[]): Promise<LearnerSnapshot | null> {
    const row = await this.db.first<Record<string, string | null>>(sql, bindings);
    return row ? rowToLearner(row) : null;
  }
}

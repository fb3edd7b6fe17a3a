import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type { LearnerFilter, LearnerOrder, LearnerRepository, LearnerSnapshot } from '@fundi/domain/learners';
import type { Knex } from 'knex';
import { PLAN_PER_CALL, type SqlDb } from '../db/sql-db.js';
import { mapUnique } from '../db/conflicts.js';
import { LEARNER_COLUMNS, PERSONAL_COLUMNS, learnerOf, learnerSelect, learnerToRow } from './learner-rows.js';
import { LEARNER_UNIQUE, insertLearner, insertLearners } from './learner-inserts.js';
import { listLearners } from './learner-listing.js';
import { findTaken } from './learner-taken-values.js';

const UPDATABLE = LEARNER_COLUMNS.filter((c) => c !== 'id' && c !== 'tenant_id' && c !== 'created_at');
const UPDATE = `UPDATE learners SET ${UPDATABLE.map((c) => `${c} = ?`).join(', ')} WHERE tenant_id = ? AND id = ? AND erased_at IS NULL`;
const LIVE = 'tenant_id = ? AND erased_at IS NULL';
/**
 * The columns a snapshot reads (`learnerOf`), read as each row's values in their order: no object is made per row.
 * `SELECT_ERASED` adds `erased_at` after them.
 */
const SELECT = `SELECT ${learnerSelect()} FROM learners`;
const SELECT_ERASED = `SELECT ${learnerSelect()}, erased_at FROM learners`;
/** Written once: the statement cache finds a statement by its text, which a string built per call makes it hash again. */
const BY_ID = `${SELECT} WHERE ${LIVE} AND id = ?`;
const BY_ID_NUMBER = `${SELECT} WHERE ${LIVE} AND id_number = ?`;
const BY_EMAIL = `${SELECT} WHERE ${LIVE} AND email_lower = ?`;
const BY_EMPLOYEE_REF = `${SELECT} WHERE ${LIVE} AND employee_ref = ? ORDER BY id LIMIT 1`;
const BY_MOBILE = `${SELECT} WHERE ${LIVE} AND mobile = ? ORDER BY id LIMIT ?`;
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
      const rows = await this.db.allArrays(
        `${PLAN_PER_CALL}${SELECT_ERASED} WHERE id IN (${part.map(() => '?').join(', ')})`,
        part,
      );
      for (const r of rows) {
        const l = learnerOf(r);
        if (l.tenantId === tenantId && r[r.length - 1] == null) out.push(l);
      }
    }
    return out;
  }

  findByIdNumber(tenantId: string, idNumber: string): Promise<LearnerSnapshot | null> {
    return this.one(BY_ID_NUMBER, [tenantId, idNumber]);
  }

  findByEmail(tenantId: string, email: string): Promise<LearnerSnapshot | null> {
    return this.one(BY_EMAIL, [tenantId, email.toLowerCase()]);
  }

  findByEmployeeRef(tenantId: string, employeeRef: string): Promise<LearnerSnapshot | null> {
    return this.one(BY_EMPLOYEE_REF, [tenantId, employeeRef]);
  }

  async findByMobile(tenantId: string, mobile: string, limit: number): Promise<LearnerSnapshot[]> {
    const rows = await this.db.allArrays(BY_MOBILE, [tenantId, mobile, limit]);
    return rows.map((r) => learnerOf(r));
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

  /** The learner a statement finds by a live learner's unique key (at most one row). */
  private async one(sql: string, bindings: string[]): Promise<LearnerSnapshot | null> {
    const [row] = await this.db.allArrays(sql, bindings);
    return row ? learnerOf(row) : null;
  }
}

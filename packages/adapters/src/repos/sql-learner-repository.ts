import {
  DomainError,
  type LearnerFilter,
  type LearnerRepository,
  type LearnerSnapshot,
  type Page,
  type PageRequest,
} from '@fundi/domain';
import type { Knex } from 'knex';
import type { SqlDb } from '../db/sql-db.js';
import { mapUnique } from './conflicts.js';
import { pageQuery } from './paging.js';
import { LEARNER_COLUMNS, PERSONAL_COLUMNS, learnerToRow, rowToLearner } from './learner-rows.js';

const UNIQUE = [
  {
    column: 'id_number',
    error: () =>
      DomainError.conflict('duplicate_id_number', 'A learner with this ID number already exists', [
        { field: 'idNumber', message: 'is already registered' },
      ]),
  },
  {
    column: 'alternate_id',
    error: () =>
      DomainError.conflict('duplicate_alternate_id', 'A learner with this alternative ID already exists', [
        { field: 'alternateId', message: 'is already registered with this alternateIdType' },
      ]),
  },
  {
    column: 'email_lower',
    error: () =>
      DomainError.conflict('duplicate_email', 'A learner with this email already exists', [
        { field: 'email', message: 'is already registered' },
      ]),
  },
];

const INSERT = `INSERT INTO learners (${LEARNER_COLUMNS.join(', ')}) VALUES (${LEARNER_COLUMNS.map(() => '?').join(', ')})`;
const UPDATABLE = LEARNER_COLUMNS.filter((c) => c !== 'id' && c !== 'tenant_id' && c !== 'created_at');
const UPDATE = `UPDATE learners SET ${UPDATABLE.map((c) => `${c} = ?`).join(', ')} WHERE tenant_id = ? AND id = ? AND erased_at IS NULL`;
const LIVE = 'tenant_id = ? AND erased_at IS NULL';
const ERASE = `UPDATE learners SET ${PERSONAL_COLUMNS.map((c) => `${c} = NULL`).join(', ')}, erased_at = ?, updated_at = ? WHERE ${LIVE} AND id = ?`;

/** Learners on SQLite or Postgres. Fixed statements are written once; lists are composed with knex. */
export class SqlLearnerRepository implements LearnerRepository {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  async insert(l: LearnerSnapshot): Promise<void> {
    const row = learnerToRow(l);
    await mapUnique(this.db.dialect, UNIQUE, () =>
      this.db.run(
        INSERT,
        LEARNER_COLUMNS.map((c) => row[c]),
      ),
    );
  }

  async update(l: LearnerSnapshot): Promise<void> {
    const row = learnerToRow(l);
    const { changes } = await mapUnique(this.db.dialect, UNIQUE, () =>
      this.db.run(UPDATE, [...UPDATABLE.map((c) => row[c]), l.tenantId, l.id]),
    );
    if (changes === 0) throw DomainError.notFound('learner', l.id);
  }

  findById(tenantId: string, id: string): Promise<LearnerSnapshot | null> {
    return this.one(`SELECT * FROM learners WHERE ${LIVE} AND id = ?`, [tenantId, id]);
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

  list(tenantId: string, filter: LearnerFilter, page: PageRequest): Promise<Page<LearnerSnapshot>> {
    const q = this.qb('learners').select('*').where('tenant_id', tenantId).whereNull('erased_at');
    if (filter.employeeRef) q.where('employee_ref', filter.employeeRef);
    if (filter.createdFrom) q.where('created_at', '>=', filter.createdFrom);
    if (filter.createdTo) q.where('created_at', '<=', filter.createdTo);
    if (filter.updatedFrom) q.where('updated_at', '>=', filter.updatedFrom);
    if (filter.updatedTo) q.where('updated_at', '<=', filter.updatedTo);
    if (filter.search) {
      const like = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q.where((w) => {
        for (const c of ['first_name', 'last_name', 'email_lower'])
          w.orWhereRaw(`lower(${c}) like ? escape '\\'`, [like]);
        if (/^\d+$/.test(filter.search!)) w.orWhere('id_number', 'like', `${filter.search}%`);
      });
    }
    return pageQuery(this.db, q, page, rowToLearner);
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

import {
  DomainError,
  learnerSearch,
  type EnrolledFilter,
  type LearnerFilter,
  type LearnerOrder,
  type LearnerRepository,
  type LearnerSnapshot,
  type Page,
  type PageRequest,
} from '@fundi/domain';
import type { Knex } from 'knex';
import { PLAN_PER_CALL, type Binding, type SqlDb } from '../db/sql-db.js';
import { mapUnique } from './conflicts.js';
import { pageQuery, type PageOrder } from './paging.js';
import { LEARNER_COLUMNS, type LearnerRow, PERSONAL_COLUMNS, learnerToRow, rowToLearner } from './learner-rows.js';
import { LEARNER_UNIQUE, insertLearner, insertLearners } from './learner-inserts.js';

/** `text` for LIKE as itself, its own `%`, `_` and backslash escaped. */
const likeExactly = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
/** `%text%` for LIKE: `text` anywhere. */
const likeAny = (text: string) => `%${likeExactly(text)}%`;

const UPDATABLE = LEARNER_COLUMNS.filter((c) => c !== 'id' && c !== 'tenant_id' && c !== 'created_at');
const UPDATE = `UPDATE learners SET ${UPDATABLE.map((c) => `${c} = ?`).join(', ')} WHERE tenant_id = ? AND id = ? AND erased_at IS NULL`;
const LIVE = 'tenant_id = ? AND erased_at IS NULL';
const ERASE = `UPDATE learners SET ${PERSONAL_COLUMNS.map((c) => `${c} = NULL`).join(', ')}, erased_at = ?, updated_at = ? WHERE ${LIVE} AND id = ?`;

/** The enrolment columns a learner list sorts by (`LearnerOrder`). */
const ENROLMENT_KEYS = { programme: 'programme_code', status: 'status', start: 'start_date' } as const;

/** `LearnerFilter.enrolled` as conditions on enrolments `e` (each beginning with AND), with their bindings. */
function enrolledWhere(f: EnrolledFilter): { sql: string; bindings: string[] } {
  const parts: [string, string | undefined][] = [
    ['e.programme_code = ?', f.programmeCode],
    ['e.status = ?', f.status],
    ['e.start_date >= ?', f.startFrom],
    ['e.start_date <= ?', f.startTo],
  ];
  const kept = parts.filter((p): p is [string, string] => p[1] !== undefined);
  return { sql: kept.map(([c]) => ` AND ${c}`).join(''), bindings: kept.map(([, v]) => v) };
}

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
    return this.one(`SELECT * FROM learners WHERE ${LIVE} AND id = ?`, [tenantId, id]);
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

  async findTaken(
    tenantId: string,
    idNumbers: readonly string[],
    emails: readonly string[],
    alternates: readonly string[] = [],
  ) {
    const out = {
      idNumbers: new Map<string, string>(),
      emails: new Map<string, string>(),
      alternates: new Map<string, string>(),
    };
    // One statement per 1,000 values of each column (an import's batch): the ID numbers, the emails and the
    // alternative IDs looked up together, each by its own unique index (docs/performance.md, "Imports on Postgres").
    // Postgres reads each column's values from one JSON parameter (`Dialect.amongTexts`); SQLite binds them one by one,
    // at most 3,000 and the tenant's id three times, far under its limit.
    const columns = [
      { column: 'id_number', values: [...new Set(idNumbers)], into: out.idNumbers, only: '' },
      { column: 'email_lower', values: [...new Set(emails.map((e) => e.toLowerCase()))], into: out.emails, only: '' },
      {
        column: "alternate_id_type || ':' || alternate_id",
        values: [...new Set(alternates)],
        into: out.alternates,
        // Only learners with an alternative ID: those the partial unique index holds (migration 025).
        only: ' AND alternate_id IS NOT NULL',
      },
    ];
    const longest = Math.max(...columns.map((c) => c.values.length));
    for (let i = 0; i < longest; i += 1000) {
      const parts: string[] = [];
      const bindings: Binding[] = [];
      const order: Map<string, string>[] = [];
      for (const c of columns) {
        const chunk = c.values.slice(i, i + 1000);
        if (!chunk.length) continue;
        const among = this.db.dialect.amongTexts(c.column, chunk);
        parts.push(
          `SELECT id, ${order.length} AS k, ${c.column} AS v FROM learners WHERE ${LIVE}${c.only} AND ${among.sql}`,
        );
        bindings.push(tenantId, ...among.bindings);
        order.push(c.into);
      }
      const rows = await this.db.all<{ id: string; k: number | string; v: string }>(
        `${PLAN_PER_CALL}${parts.join(' UNION ALL ')}`,
        bindings,
      );
      for (const r of rows) order[Number(r.k)]!.set(r.v, r.id);
    }
    return out;
  }

  list(
    tenantId: string,
    filter: LearnerFilter,
    page: PageRequest,
    order?: LearnerOrder,
  ): Promise<Page<LearnerSnapshot>> {
    const filtered = this.filtered(tenantId, filter);
    const q = filtered.clone().select('learners.*');
    const sorted = order && page.kind === 'offset' ? order : undefined;
    const dir = sorted?.descending ? 'desc' : 'asc';
    const enrolmentKey = sorted && ENROLMENT_KEYS[sorted.by as keyof typeof ENROLMENT_KEYS];
    if (enrolmentKey) {
      // Each learner's first value in the sort's direction, of the enrolments the filter keeps: one grouped pass over
      // the tenant's enrolments, joined by learner, in the same statement as the page. (A subquery per learner let
      // SQLite walk the tenant's whole (tenant, status, start, ...) index for each MIN.)
      const { sql, bindings } = enrolledWhere(filter.enrolled ?? {});
      q.joinRaw(
        `LEFT JOIN (SELECT e.learner_id, ${sorted.descending ? 'MAX' : 'MIN'}(e.${enrolmentKey}) AS sort_key FROM enrolments e WHERE e.tenant_id = ?${sql} GROUP BY e.learner_id) s ON s.learner_id = learners.id`,
        [tenantId, ...bindings],
      ).select('s.sort_key');
    }
    // Learners without the field come last either way; ties (and pages) are kept stable by id. The sort is carried
    // into the one statement's outer query, so a sorted page is one statement too.
    const sort: PageOrder | undefined = !sorted
      ? undefined
      : enrolmentKey
        ? (c) => `${c('sort_key')} ${dir} NULLS LAST`
        : sorted.by === 'name'
          ? (c) => `lower(${c('last_name')}) ${dir}, lower(${c('first_name')}) ${dir}`
          : (c) => `${c('id_number')} IS NULL, ${c('id_number')} ${dir}`;
    // A search by words reads every learner of the tenant: the page and its count are one pass over them.
    const words = filter.search !== undefined && learnerSearch(filter.search).mobile === null;
    // The count is of the filtered learners alone: the sort's join keeps one row per learner, so counting it only
    // adds its grouped pass over the enrolments.
    return pageQuery(this.db, q, page, rowToLearner, 'id', words || filter.employer ? 'scan' : true, sort, filtered);
  }

  private filtered(tenantId: string, filter: LearnerFilter): Knex.QueryBuilder {
    const q = this.qb('learners').where('tenant_id', tenantId).whereNull('erased_at');
    if (filter.employeeRef) q.where('employee_ref', filter.employeeRef);
    // Any case: the dialect's case-insensitive LIKE, with no function call per row (docs/performance.md).
    const ilike = this.db.dialect.ilike;
    if (filter.employer) q.whereRaw(`employer ${ilike} ? escape '\\'`, [likeAny(filter.employer.toLowerCase())]);
    if (filter.ids) {
      const among = this.db.dialect.inTexts(filter.ids);
      q.whereRaw(
        `id ${among.sql}`,
        among.bindings.map((b) => b ?? null),
      );
    }
    if (filter.enrolled) {
      const { sql, bindings } = enrolledWhere(filter.enrolled);
      q.whereRaw(`id IN (SELECT e.learner_id FROM enrolments e WHERE e.tenant_id = ?${sql})`, [tenantId, ...bindings]);
    }
    if (filter.createdFrom) q.where('created_at', '>=', filter.createdFrom);
    if (filter.createdTo) q.where('created_at', '<=', filter.createdTo);
    if (filter.updatedFrom) q.where('updated_at', '>=', filter.updatedFrom);
    if (filter.updatedTo) q.where('updated_at', '<=', filter.updatedTo);
    if (filter.search) {
      const { words, mobile } = learnerSearch(filter.search);
      if (mobile) q.where('mobile', mobile);
      // Every word matches some field (names in any order); `learnerSearch` in the domain says which.
      for (const word of words) {
        const like = likeAny(word);
        q.where((w) => {
          for (const c of ['first_name', 'last_name', 'middle_name', 'email_lower'])
            w.orWhereRaw(`${c} ${ilike} ? escape '\\'`, [like]);
          w.orWhereRaw(`employee_ref ${ilike} ? escape '\\'`, [likeExactly(word)]);
          if (/^\d+$/.test(word)) w.orWhere('id_number', 'like', `${word}%`);
          if (/^[a-z0-9/-]+$/.test(word)) w.orWhere('alternate_id', 'like', `${word.toUpperCase()}%`);
        });
      }
    }
    return q;
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

import {
  DomainError,
  type AtRiskQuery,
  type EnrolmentAtRisk,
  type EnrolmentFilter,
  type EnrolmentRepository,
  type EnrolmentSnapshot,
  type EnrolmentStatus,
  type EnrolmentSummary,
  type Page,
  type PageRequest,
  type StatusChange,
} from '@fundi/domain';
import type { Knex } from 'knex';
import { compile } from '../db/query-builder.js';
import type { SqlDb } from '../db/sql-db.js';
import { mapUnique } from './conflicts.js';
import { pageQuery } from './paging.js';
import {
  ENROLMENT_COLUMNS,
  enrolmentValues,
  insertSql,
  rowToEnrolment,
  rowToStatusChange,
  type Row,
} from './training-rows.js';

const openConflict = () =>
  DomainError.conflict('open_enrolment_exists', 'The learner already has an open enrolment in this programme', [
    { field: 'programmeCode', message: 'the learner already has an open enrolment in this programme' },
  ]);
// Postgres names the index; SQLite names the columns.
const UNIQUE = [
  { column: 'enrolments_open_unique', error: openConflict },
  { column: 'enrolments.learner_id', error: openConflict },
];
const INSERT = insertSql('enrolments', ENROLMENT_COLUMNS);
const OPEN = "status IN ('enrolled', 'in_progress', 'suspended')";
const HISTORY_COLUMNS = [
  'id',
  'tenant_id',
  'enrolment_id',
  'from_status',
  'to_status',
  'reason',
  'effective_date',
  'changed_by',
  'changed_at',
];

export class SqlEnrolmentRepository implements EnrolmentRepository {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  async insert(e: EnrolmentSnapshot): Promise<void> {
    await mapUnique(this.db.dialect, UNIQUE, () => this.db.run(INSERT, enrolmentValues(e)));
  }

  async updateStatus(e: EnrolmentSnapshot, expectedStatus: EnrolmentStatus): Promise<void> {
    const { changes } = await mapUnique(this.db.dialect, UNIQUE, () =>
      this.db.run(
        'UPDATE enrolments SET status = ?, achievement_date = ?, updated_at = ? WHERE tenant_id = ? AND id = ? AND status = ?',
        [e.status, e.achievementDate, e.updatedAt, e.tenantId, e.id, expectedStatus],
      ),
    );
    if (changes > 0) return;
    if (await this.findById(e.tenantId, e.id))
      throw DomainError.conflict('concurrent_status_change', 'The enrolment status changed meanwhile; read it again');
    throw DomainError.notFound('enrolment', e.id);
  }

  async findById(tenantId: string, id: string): Promise<EnrolmentSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM enrolments WHERE tenant_id = ? AND id = ?', [tenantId, id]);
    return r ? rowToEnrolment(r) : null;
  }

  list(tenantId: string, f: EnrolmentFilter, page: PageRequest): Promise<Page<EnrolmentSnapshot>> {
    return pageQuery(this.db, this.filtered(tenantId, f).select('*'), page, rowToEnrolment);
  }

  async summaries(tenantId: string, f: EnrolmentFilter, learnerIds?: readonly string[]): Promise<EnrolmentSummary[]> {
    const q = this.filtered(tenantId, f).select('id', 'learner_id', 'programme_code', 'status', 'start_date');
    if (learnerIds) {
      const among = this.db.dialect.inTexts(learnerIds);
      q.whereRaw(
        `learner_id ${among.sql}`,
        among.bindings.map((b) => b ?? null),
      );
      // In (learner, id) order, which the (tenant, learner, id) index gives for the listed learners alone: ordered
      // by id only, SQLite walked the tenant's (tenant, id) index, every enrolment of the tenant, to skip a sort
      // (most of a learner list's time at 20,000 enrolments; docs/benchmarks.md). Put in id order below.
      q.orderBy([{ column: 'learner_id' }, { column: 'id' }]);
    } else q.orderBy('id');
    const { sql, bindings } = compile(q);
    const rows = await this.db.all<{
      id: string;
      learner_id: string;
      programme_code: string;
      status: EnrolmentStatus;
      start_date: string;
    }>(sql, bindings);
    const out = rows.map((r) => ({
      id: r.id,
      learnerId: r.learner_id,
      programmeCode: r.programme_code,
      status: r.status,
      startDate: r.start_date,
    }));
    return learnerIds ? out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) : out;
  }

  async ofLearners(tenantId: string, f: EnrolmentFilter, learnerIds: readonly string[]): Promise<EnrolmentSnapshot[]> {
    if (learnerIds.length === 0) return [];
    const among = this.db.dialect.inTexts(learnerIds);
    const q = this.filtered(tenantId, f)
      .select('*')
      .whereRaw(
        `learner_id ${among.sql}`,
        among.bindings.map((b) => b ?? null),
      );
    const { sql, bindings } = compile(q);
    // Sorted here, not by the database, so the planner probes (tenant, learner, id) per learner rather than walking
    // the tenant's enrolments in id order (as `AssessmentRepository.summativeForEnrolments` does).
    const rows = (await this.db.all<Row>(sql, bindings)).map(rowToEnrolment);
    return rows.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  }

  private filtered(tenantId: string, f: EnrolmentFilter): Knex.QueryBuilder {
    const q = this.qb('enrolments').where('tenant_id', tenantId);
    if (f.learnerId) q.where('learner_id', f.learnerId);
    if (f.programmeCode) q.where('programme_code', f.programmeCode);
    if (f.status) q.where('status', f.status);
    if (f.startFrom) q.where('start_date', '>=', f.startFrom);
    if (f.startTo) q.where('start_date', '<=', f.startTo);
    if (f.updatedFrom) q.where('updated_at', '>=', f.updatedFrom);
    if (f.updatedTo) q.where('updated_at', '<=', f.updatedTo);
    return q;
  }

  async openForLearner(tenantId: string, learnerId: string): Promise<EnrolmentSnapshot[]> {
    const rows = await this.db.all<Row>(
      `SELECT * FROM enrolments WHERE tenant_id = ? AND learner_id = ? AND ${OPEN} ORDER BY start_date DESC, id DESC`,
      [tenantId, learnerId],
    );
    return rows.map(rowToEnrolment);
  }

  async openDueOn(date: string, afterId: string | null, limit: number): Promise<EnrolmentSnapshot[]> {
    const rows = await this.db.all<Row>(
      `SELECT * FROM enrolments WHERE expected_end_date = ? AND id > ? AND ${OPEN} ORDER BY id LIMIT ?`,
      [date, afterId ?? '', limit],
    );
    return rows.map(rowToEnrolment);
  }

  async countForProgramme(tenantId: string, programmeId: string): Promise<number> {
    const r = await this.db.first<{ n: number }>(
      'SELECT COUNT(*) AS n FROM enrolments WHERE tenant_id = ? AND programme_id = ?',
      [tenantId, programmeId],
    );
    return Number(r?.n ?? 0);
  }

  async statusCounts(tenantId: string): Promise<{ programmeId: string; status: EnrolmentStatus; count: number }[]> {
    const rows = await this.db.all<{ programme_id: string; status: EnrolmentStatus; n: number }>(
      'SELECT programme_id, status, COUNT(*) AS n FROM enrolments WHERE tenant_id = ? GROUP BY programme_id, status',
      [tenantId],
    );
    return rows.map((r) => ({ programmeId: r.programme_id, status: r.status, count: Number(r.n) }));
  }

  async atRisk(
    tenantId: string,
    q: AtRiskQuery,
  ): Promise<{ enrolments: number; learners: number; items: EnrolmentAtRisk[] }> {
    // One statement: one pass over the tenant's open enrolments in the index (tenant, status, start, expected end,
    // learner, id), each checked against the set of enrolments assessed since `since` (read once through
    // (tenant, date)), kept once (the CTE) for the counts and the first `limit`, so the count and the list agree;
    // the listed ones are then joined whole with their last assessment date. Overdue enrolments sort by their
    // expected end (always before today), idle ones after them ('9999'). The last date is an expression, MAX(d || ''),
    // so that SQLite probes (tenant, enrolment) rather than walk the tenant's every assessment by date for the MAX.
    const active = this.db.dialect.inTexts(q.active);
    const sql = `WITH r AS MATERIALIZED (
        SELECT e.id, e.learner_id, e.start_date, CASE WHEN e.expected_end_date < ? THEN e.expected_end_date ELSE '9999' END AS due_key
        FROM enrolments e WHERE e.tenant_id = ? AND e.${OPEN} AND (e.expected_end_date < ? OR (e.start_date <= ?
          AND e.id NOT IN (SELECT a.enrolment_id FROM assessments a WHERE a.tenant_id = ? AND a.assessment_date >= ?)
          AND NOT (e.id ${active.sql}))))
      SELECT w.*, t.due_key AS risk_due_key, c.n AS risk_n, c.l AS risk_l,
        (SELECT MAX(a.assessment_date || '') FROM assessments a WHERE a.tenant_id = ? AND a.enrolment_id = t.id) AS risk_last
      FROM (SELECT COUNT(*) AS n, COUNT(DISTINCT learner_id) AS l FROM r) c
      LEFT JOIN (SELECT id, due_key, start_date FROM r ORDER BY due_key, start_date, id LIMIT ?) t ON true
      LEFT JOIN enrolments w ON w.tenant_id = ? AND w.id = t.id
      ORDER BY t.due_key, t.start_date, t.id`;
    const rows = await this.db.all<
      Row & { risk_due_key: string | null; risk_n: number; risk_l: number; risk_last: unknown }
    >(sql, [q.today, tenantId, q.today, q.since, tenantId, q.since, ...active.bindings, tenantId, q.limit, tenantId]);
    return {
      enrolments: Number(rows[0]?.risk_n ?? 0),
      learners: Number(rows[0]?.risk_l ?? 0),
      // No enrolment at risk: the one row is the counts', with the enrolment's columns null.
      items: rows.flatMap((r) =>
        r.risk_due_key == null || r.id == null
          ? []
          : [
              {
                enrolment: rowToEnrolment(r),
                reason: r.risk_due_key === '9999' ? ('idle' as const) : ('overdue' as const),
                lastAssessed: r.risk_last == null ? null : String(r.risk_last),
              },
            ],
      ),
    };
  }

  async dueBetween(
    tenantId: string,
    q: { from: string; to: string; limit: number },
  ): Promise<{ total: number; items: EnrolmentSnapshot[] }> {
    const due = `FROM enrolments WHERE tenant_id = ? AND expected_end_date >= ? AND expected_end_date <= ? AND ${OPEN}`;
    const bind = [tenantId, q.from, q.to];
    const [counted, rows] = await Promise.all([
      this.db.first<{ n: number }>(`SELECT COUNT(*) AS n ${due}`, bind),
      this.db.all<Row>(`SELECT * ${due} ORDER BY expected_end_date, id LIMIT ?`, [...bind, q.limit]),
    ]);
    return { total: Number(counted?.n ?? 0), items: rows.map(rowToEnrolment) };
  }

  async addStatusChange(c: StatusChange): Promise<void> {
    await this.db.run(insertSql('enrolment_status_changes', HISTORY_COLUMNS), [
      c.id,
      c.tenantId,
      c.enrolmentId,
      c.from,
      c.to,
      c.reason,
      c.effectiveDate,
      c.changedBy,
      c.changedAt,
    ]);
  }

  async history(tenantId: string, enrolmentId: string): Promise<StatusChange[]> {
    const rows = await this.db.all<Row>(
      'SELECT * FROM enrolment_status_changes WHERE tenant_id = ? AND enrolment_id = ? ORDER BY id',
      [tenantId, enrolmentId],
    );
    return rows.map(rowToStatusChange);
  }
}

import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type {
  AtRiskQuery,
  EnrolmentAtRisk,
  EnrolmentFilter,
  EnrolmentRepository,
  EnrolmentSnapshot,
  EnrolmentStatus,
  EnrolmentSummary,
  StatusChange,
} from '@fundi/domain/training';
import type { Knex } from 'knex';
import type { SqlDb } from '../db/sql-db.js';
import { mapUnique } from '../db/conflicts.js';
import { pageQuery } from '../db/paging.js';
import { ENROLMENT_COLUMNS, enrolmentValues, insertSql, rowToEnrolment, type Row } from './training-rows.js';
import { enrolmentSummaries, enrolmentsOfLearners, filteredEnrolments } from './enrolment-listing.js';
import { OPEN, enrolmentsAtRisk, enrolmentsDueBetween } from './enrolment-follow-up.js';
import { addStatusChange, statusHistory } from './enrolment-status-history.js';

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
    return pageQuery(this.db, filteredEnrolments(this.qb, tenantId, f).select('*'), page, rowToEnrolment);
  }

  summaries(tenantId: string, f: EnrolmentFilter, learnerIds?: readonly string[]): Promise<EnrolmentSummary[]> {
    return enrolmentSummaries(this.db, this.qb, tenantId, f, learnerIds);
  }

  ofLearners(tenantId: string, f: EnrolmentFilter, learnerIds: readonly string[]): Promise<EnrolmentSnapshot[]> {
    return enrolmentsOfLearners(this.db, this.qb, tenantId, f, learnerIds);
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

  atRisk(
    tenantId: string,
    q: AtRiskQuery,
  ): Promise<{ enrolments: number; learners: number; items: EnrolmentAtRisk[] }> {
    return enrolmentsAtRisk(this.db, tenantId, q);
  }

  dueBetween(
    tenantId: string,
    q: { from: string; to: string; limit: number },
  ): Promise<{ total: number; items: EnrolmentSnapshot[] }> {
    return enrolmentsDueBetween(this.db, tenantId, q);
  }

  addStatusChange(c: StatusChange): Promise<void> {
    return addStatusChange(this.db, c);
  }

  history(tenantId: string, enrolmentId: string): Promise<StatusChange[]> {
    return statusHistory(this.db, tenantId, enrolmentId);
  }
}

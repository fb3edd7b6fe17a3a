import type { EnrolmentFilter, EnrolmentSnapshot, EnrolmentStatus, EnrolmentSummary } from '@fundi/domain/training';
import type { Knex } from 'knex';
import { compile } from '../db/query-builder.js';
import type { SqlDb } from '../db/sql-db.js';
import { rowToEnrolment, type Row } from './training-rows.js';

/**
 * A tenant's enrolments as filtered: the query a page of them reads, their summaries (for lists of learners) and
 * the enrolments of given learners, each in id order.
 */
export function filteredEnrolments(qb: Knex, tenantId: string, f: EnrolmentFilter): Knex.QueryBuilder {
  const q = qb('enrolments').where('tenant_id', tenantId);
  if (f.learnerId) q.where('learner_id', f.learnerId);
  if (f.programmeCode) q.where('programme_code', f.programmeCode);
  if (f.status) q.where('status', f.status);
  if (f.startFrom) q.where('start_date', '>=', f.startFrom);
  if (f.startTo) q.where('start_date', '<=', f.startTo);
  if (f.updatedFrom) q.where('updated_at', '>=', f.updatedFrom);
  if (f.updatedTo) q.where('updated_at', '<=', f.updatedTo);
  return q;
}

export async function enrolmentSummaries(
  db: SqlDb,
  qb: Knex,
  tenantId: string,
  f: EnrolmentFilter,
  learnerIds?: readonly string[],
): Promise<EnrolmentSummary[]> {
  const q = filteredEnrolments(qb, tenantId, f).select('id', 'learner_id', 'programme_code', 'status', 'start_date');
  if (learnerIds) {
    const among = db.dialect.inTexts(learnerIds);
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
  const rows = await db.all<{
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

export async function enrolmentsOfLearners(
  db: SqlDb,
  qb: Knex,
  tenantId: string,
  f: EnrolmentFilter,
  learnerIds: readonly string[],
): Promise<EnrolmentSnapshot[]> {
  if (learnerIds.length === 0) return [];
  const among = db.dialect.inTexts(learnerIds);
  const q = filteredEnrolments(qb, tenantId, f)
    .select('*')
    .whereRaw(
      `learner_id ${among.sql}`,
      among.bindings.map((b) => b ?? null),
    );
  const { sql, bindings } = compile(q);
  // Sorted here, not by the database, so the planner probes (tenant, learner, id) per learner rather than walking
  // the tenant's enrolments in id order (as `AssessmentRepository.summativeForEnrolments` does).
  const rows = (await db.all<Row>(sql, bindings)).map(rowToEnrolment);
  return rows.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

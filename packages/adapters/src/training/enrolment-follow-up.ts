import type { AtRiskQuery, EnrolmentAtRisk, EnrolmentSnapshot } from '@fundi/domain/training';
import type { SqlDb } from '../db/sql-db.js';
import { rowToEnrolment, type Row } from './training-rows.js';

/** An enrolment still open: neither completed nor withdrawn. */
export const OPEN = "status IN ('enrolled', 'in_progress', 'suspended')";

/**
 * The open enrolments that want following up: those at risk (past their expected end, or without an assessment
 * for a while) and those due to end between two dates.
 */
export async function enrolmentsAtRisk(
  db: SqlDb,
  tenantId: string,
  q: AtRiskQuery,
): Promise<{ enrolments: number; learners: number; items: EnrolmentAtRisk[] }> {
  // One statement: one pass over the tenant's open enrolments in the index (tenant, status, start, expected end,
  // learner, id), each checked against the set of enrolments assessed since `since` (read once through
  // (tenant, date)), kept once (the CTE) for the counts and the first `limit`, so the count and the list agree;
  // the listed ones are then joined whole with their last assessment date. Overdue enrolments sort by their
  // expected end (always before today), idle ones after them ('9999'). The last date is an expression, MAX(d || ''),
  // so that SQLite probes (tenant, enrolment) rather than walk the tenant's every assessment by date for the MAX.
  const active = db.dialect.inTexts(q.active);
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
  const rows = await db.all<Row & { risk_due_key: string | null; risk_n: number; risk_l: number; risk_last: unknown }>(
    sql,
    [q.today, tenantId, q.today, q.since, tenantId, q.since, ...active.bindings, tenantId, q.limit, tenantId],
  );
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

export async function enrolmentsDueBetween(
  db: SqlDb,
  tenantId: string,
  q: { from: string; to: string; limit: number },
): Promise<{ total: number; items: EnrolmentSnapshot[] }> {
  const due = `FROM enrolments WHERE tenant_id = ? AND expected_end_date >= ? AND expected_end_date <= ? AND ${OPEN}`;
  const bind = [tenantId, q.from, q.to];
  const [counted, rows] = await Promise.all([
    db.first<{ n: number }>(`SELECT COUNT(*) AS n ${due}`, bind),
    db.all<Row>(`SELECT * ${due} ORDER BY expected_end_date, id LIMIT ?`, [...bind, q.limit]),
  ]);
  return { total: Number(counted?.n ?? 0), items: rows.map(rowToEnrolment) };
}

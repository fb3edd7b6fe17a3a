import type { StatusChange } from '@fundi/domain/training';
import type { SqlDb } from '../db/sql-db.js';
import { insertSql, rowToStatusChange, type Row } from './training-rows.js';

/** An enrolment's status changes, each written once and read back in order. */
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

export async function addStatusChange(db: SqlDb, c: StatusChange): Promise<void> {
  await db.run(insertSql('enrolment_status_changes', HISTORY_COLUMNS), [
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

export async function statusHistory(db: SqlDb, tenantId: string, enrolmentId: string): Promise<StatusChange[]> {
  const rows = await db.all<Row>(
    'SELECT * FROM enrolment_status_changes WHERE tenant_id = ? AND enrolment_id = ? ORDER BY id',
    [tenantId, enrolmentId],
  );
  return rows.map(rowToStatusChange);
}

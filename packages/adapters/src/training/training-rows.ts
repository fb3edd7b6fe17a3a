import type { EnrolmentSnapshot, ProgrammeSnapshot, StatusChange } from '@fundi/domain/training';

export type Row = Record<string, string | number | null>;
/** A column's value as text, or null. */
export const s = (v: unknown) => (v == null ? null : String(v));

export const PROGRAMME_COLUMNS = [
  'id',
  'tenant_id',
  'code',
  'name',
  'type',
  'qualification_id',
  'nqf_level',
  'modules',
  'status',
  'retired_at',
  'created_at',
  'updated_at',
] as const;

export function programmeValues(p: ProgrammeSnapshot): (string | number | null)[] {
  return [
    p.id,
    p.tenantId,
    p.code,
    p.name,
    p.type,
    p.qualificationId,
    p.nqfLevel,
    JSON.stringify(p.modules),
    p.status,
    p.retiredAt,
    p.createdAt,
    p.updatedAt,
  ];
}

export const rowToProgramme = (r: Row): ProgrammeSnapshot => ({
  id: s(r.id)!,
  tenantId: s(r.tenant_id)!,
  code: s(r.code)!,
  name: s(r.name)!,
  type: r.type as ProgrammeSnapshot['type'],
  qualificationId: s(r.qualification_id),
  nqfLevel: r.nqf_level == null ? null : Number(r.nqf_level),
  modules: JSON.parse(String(r.modules)),
  status: r.status as ProgrammeSnapshot['status'],
  retiredAt: s(r.retired_at),
  createdAt: s(r.created_at)!,
  updatedAt: s(r.updated_at)!,
});

export const ENROLMENT_COLUMNS = [
  'id',
  'tenant_id',
  'learner_id',
  'programme_id',
  'programme_code',
  'start_date',
  'expected_end_date',
  'funding_source',
  'status',
  'achievement_date',
  'created_at',
  'updated_at',
] as const;

export function enrolmentValues(e: EnrolmentSnapshot): (string | null)[] {
  return [
    e.id,
    e.tenantId,
    e.learnerId,
    e.programmeId,
    e.programmeCode,
    e.startDate,
    e.expectedEndDate,
    e.fundingSource,
    e.status,
    e.achievementDate,
    e.createdAt,
    e.updatedAt,
  ];
}

export const rowToEnrolment = (r: Row): EnrolmentSnapshot => ({
  id: s(r.id)!,
  tenantId: s(r.tenant_id)!,
  learnerId: s(r.learner_id)!,
  programmeId: s(r.programme_id)!,
  programmeCode: s(r.programme_code)!,
  startDate: s(r.start_date)!,
  expectedEndDate: s(r.expected_end_date),
  fundingSource: s(r.funding_source),
  status: r.status as EnrolmentSnapshot['status'],
  achievementDate: s(r.achievement_date),
  createdAt: s(r.created_at)!,
  updatedAt: s(r.updated_at)!,
});

export const rowToStatusChange = (r: Row): StatusChange => ({
  id: s(r.id)!,
  tenantId: s(r.tenant_id)!,
  enrolmentId: s(r.enrolment_id)!,
  from: s(r.from_status) as StatusChange['from'],
  to: r.to_status as StatusChange['to'],
  reason: s(r.reason),
  effectiveDate: s(r.effective_date)!,
  changedBy: s(r.changed_by)!,
  changedAt: s(r.changed_at)!,
});

export const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;

import { DomainError, IsoDate, type ErrorDetail } from '@fundi/domain';
import { ENROLMENT_STATUSES, type TrainingRepos } from '@fundi/domain/training';
import { EVIDENCE_STATUSES } from '@fundi/domain/evidence';
import type { ExportFilters, ExportFormat, ExportType } from '@fundi/domain/exports';
import { CSV_COLUMNS, defaultColumns, type CsvType } from './export-columns.js';
import { ATR_COLUMNS, WSP_COLUMNS } from './wsp-atr.js';
import type { ResolvedFilters } from './export-reading.js';

export interface ExportRequest {
  type: ExportType;
  format?: ExportFormat;
  filters?: ExportFilters;
  fields?: string[];
}

const FORMAT: Record<ExportType, ExportFormat> = {
  learners: 'csv',
  enrolments: 'csv',
  assessments: 'csv',
  evidence: 'csv',
  atr: 'zip',
  wsp: 'zip',
  full: 'zip',
  qcto01: 'txt',
  qcto02: 'txt',
  audit: 'csv',
};

/** The most learners a learners export of a selection names. */
export const MAX_LEARNER_IDS = 1000;

/** What `status` filters by, per type (docs/api.md, "Exports"). */
const STATUSES: Partial<Record<ExportType, readonly string[]>> = {
  learners: ENROLMENT_STATUSES,
  enrolments: ENROLMENT_STATUSES,
  qcto01: ENROLMENT_STATUSES,
  qcto02: ENROLMENT_STATUSES,
  atr: ENROLMENT_STATUSES,
  wsp: ENROLMENT_STATUSES,
  assessments: ['C', 'NYC'],
  evidence: EVIDENCE_STATUSES,
};

export function columnsOf(type: ExportType): Record<string, unknown> | null {
  if (type in CSV_COLUMNS) return CSV_COLUMNS[type as CsvType];
  if (type === 'atr') return ATR_COLUMNS;
  if (type === 'wsp') return WSP_COLUMNS;
  return null;
}

/** Checks a request; returns the format, the chosen columns and the filters with the programme code resolved. */
export async function checkRequest(
  repos: Pick<TrainingRepos, 'programmes'>,
  tenantId: string,
  req: ExportRequest,
): Promise<{ format: ExportFormat; fields: string[] | null; filters: ResolvedFilters }> {
  const errors: ErrorDetail[] = [];
  const format = FORMAT[req.type];
  if (req.format !== undefined && req.format !== format)
    errors.push({ field: 'format', message: `must be ${format} for a ${req.type} export` });
  const columns = columnsOf(req.type);
  let fields: string[] | null = null;
  if (req.fields !== undefined) {
    if (!columns || req.type === 'atr' || req.type === 'wsp')
      errors.push({ field: 'fields', message: `cannot be chosen for a ${req.type} export` });
    else {
      const unknown = req.fields.filter((f) => !(f in columns));
      if (unknown.length)
        errors.push({
          field: 'fields',
          message: `unknown field ${unknown.map((u) => JSON.stringify(u)).join(', ')}; allowed: ${Object.keys(columns).join(', ')}`,
        });
      else if (new Set(req.fields).size !== req.fields.length)
        errors.push({ field: 'fields', message: 'names a field twice' });
      else if (!req.fields.length) errors.push({ field: 'fields', message: 'must name at least one field' });
      else fields = req.fields;
    }
  } else if (req.type in CSV_COLUMNS) fields = defaultColumns(req.type as CsvType);
  const f: ResolvedFilters = { ...(req.filters ?? {}) };
  for (const k of ['from', 'to'] as const) {
    if (f[k] === undefined) continue;
    try {
      IsoDate.parse(f[k], `filters.${k}`);
    } catch (e) {
      errors.push(...(e as DomainError).details);
    }
  }
  if (f.from && f.to && f.from > f.to) errors.push({ field: 'filters.to', message: 'must not be before from' });
  const statuses = STATUSES[req.type];
  if (f.status !== undefined && statuses && !statuses.includes(f.status))
    errors.push({ field: 'filters.status', message: `must be one of ${statuses.join(', ')}` });
  if (f.learnerIds !== undefined) {
    if (req.type !== 'learners') errors.push({ field: 'filters.learnerIds', message: 'is only for a learners export' });
    else if (f.programmeId !== undefined || f.status !== undefined)
      errors.push({ field: 'filters.learnerIds', message: 'cannot be combined with programmeId or status' });
    else if (f.learnerIds.length === 0 || f.learnerIds.length > MAX_LEARNER_IDS)
      errors.push({ field: 'filters.learnerIds', message: `must name 1 to ${MAX_LEARNER_IDS} learners` });
    else if (new Set(f.learnerIds).size !== f.learnerIds.length)
      errors.push({ field: 'filters.learnerIds', message: 'names a learner twice' });
  }
  if (f.programmeId !== undefined) {
    const p = await repos.programmes.findById(tenantId, f.programmeId);
    if (!p) errors.push({ field: 'filters.programmeId', message: 'is not a programme of this tenant' });
    else f.programmeCode = p.code;
  }
  if (errors.length) throw DomainError.invalidMany(errors);
  return { format, fields, filters: f };
}

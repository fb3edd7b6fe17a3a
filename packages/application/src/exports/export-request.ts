import { DomainError, IsoDate, type ErrorDetail } from '@fundi/domain';
import type { TrainingRepos } from '@fundi/domain/training';
import type { ExportFilters, ExportFormat } from '@fundi/domain/exports';
import type { ExportTypeDef, ResolvedFilters } from './export-type.js';

export interface ExportRequest {
  /** One of the offered export types (`ExportPorts['types']`). */
  type: string;
  format?: ExportFormat;
  filters?: ExportFilters;
  fields?: string[];
}

/** The most learners a learners export of a selection names. */
export const MAX_LEARNER_IDS = 1000;

/** The type a request names, among those a request may name (the full export's own files are not). */
export function requestable(types: readonly ExportTypeDef[], name: string): ExportTypeDef | undefined {
  return types.find((t) => t.name === name && !t.fullOnly);
}

/** Checks a request; returns the format, the chosen columns and the filters with the programme code resolved. */
export async function checkRequest(
  d: { repos: Pick<TrainingRepos, 'programmes'>; types: readonly ExportTypeDef[] },
  tenantId: string,
  req: ExportRequest,
): Promise<{ format: ExportFormat; fields: string[] | null; filters: ResolvedFilters }> {
  const type = requestable(d.types, req.type);
  if (!type)
    throw DomainError.invalid(
      'type',
      `must be one of ${d.types
        .filter((t) => !t.fullOnly)
        .map((t) => t.name)
        .join(', ')}`,
    );
  const errors: ErrorDetail[] = [];
  const format = type.format;
  if (req.format !== undefined && req.format !== format)
    errors.push({ field: 'format', message: `must be ${format} for a ${req.type} export` });
  const columns = type.csv?.columns;
  let fields: string[] | null = null;
  if (req.fields !== undefined) {
    if (!columns) errors.push({ field: 'fields', message: `cannot be chosen for a ${req.type} export` });
    else {
      const unknown = req.fields.filter((f) => !columns.includes(f));
      if (unknown.length)
        errors.push({
          field: 'fields',
          message: `unknown field ${unknown.map((u) => JSON.stringify(u)).join(', ')}; allowed: ${columns.join(', ')}`,
        });
      else if (new Set(req.fields).size !== req.fields.length)
        errors.push({ field: 'fields', message: 'names a field twice' });
      else if (!req.fields.length) errors.push({ field: 'fields', message: 'must name at least one field' });
      else fields = req.fields;
    }
  } else if (type.csv) fields = [...type.csv.defaults];
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
  const statuses = type.status?.values;
  if (f.status !== undefined && statuses && !statuses.includes(f.status))
    errors.push({ field: 'filters.status', message: `must be one of ${statuses.join(', ')}` });
  if (f.learnerIds !== undefined) {
    if (!type.selection) {
      const selecting = d.types.filter((t) => t.selection).map((t) => t.name);
      errors.push({ field: 'filters.learnerIds', message: `is only for a ${selecting.join(' or ')} export` });
    } else if (f.programmeId !== undefined || f.status !== undefined)
      errors.push({ field: 'filters.learnerIds', message: 'cannot be combined with programmeId or status' });
    else if (f.learnerIds.length === 0 || f.learnerIds.length > MAX_LEARNER_IDS)
      errors.push({ field: 'filters.learnerIds', message: `must name 1 to ${MAX_LEARNER_IDS} learners` });
    else if (new Set(f.learnerIds).size !== f.learnerIds.length)
      errors.push({ field: 'filters.learnerIds', message: 'names a learner twice' });
  }
  if (f.programmeId !== undefined) {
    const p = await d.repos.programmes.findById(tenantId, f.programmeId);
    if (!p) errors.push({ field: 'filters.programmeId', message: 'is not a programme of this tenant' });
    else f.programmeCode = p.code;
  }
  if (errors.length) throw DomainError.invalidMany(errors);
  return { format, fields, filters: f };
}

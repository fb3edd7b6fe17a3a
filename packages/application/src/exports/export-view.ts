import type { ExportSnapshot, ReadinessReport } from '@fundi/domain/exports';

/** An export as callers see it (docs/api.md, "Exports"): no storage key, no tenant, filters as requested. */
export interface ExportView {
  id: string;
  type: string;
  format: ExportSnapshot['format'];
  status: ExportSnapshot['status'];
  filters: { programmeId?: string; status?: string; from?: string; to?: string; learnerIds?: string[] };
  fields: string[] | null;
  rowCount: number | null;
  processedRows: number | null;
  totalRows: number | null;
  fileName: string | null;
  size: number | null;
  createdAt: string;
  completedAt: string | null;
  expiresAt: string | null;
  purgedAt: string | null;
  purgeReason: ExportSnapshot['purgeReason'];
  error: string | null;
  readiness: ReadinessReport | null;
}

export function exportView(e: ExportSnapshot): ExportView {
  const { programmeId, status, from, to, learnerIds } = e.filters;
  const filters = Object.fromEntries(
    Object.entries({ programmeId, status, from, to, learnerIds }).filter(([, v]) => v !== undefined),
  );
  return {
    id: e.id,
    type: e.type,
    format: e.format,
    status: e.status,
    filters,
    fields: e.fields,
    rowCount: e.rowCount,
    processedRows: e.processedRows,
    totalRows: e.totalRows,
    fileName: e.fileName,
    size: e.size,
    createdAt: e.createdAt,
    completedAt: e.completedAt,
    expiresAt: e.expiresAt,
    purgedAt: e.purgedAt,
    purgeReason: e.purgeReason,
    error: e.error,
    readiness: e.readiness,
  };
}

export interface DryRunReport extends ReadinessReport {
  type: 'qcto01' | 'qcto02';
  dryRun: true;
}

export interface ExportDownload {
  url: string;
  expiresAt: string;
  filename: string;
  contentType: string;
  size: number;
}

import type { ImportFormat, ImportMessages, ImportSnapshot, RowError } from '@fundi/domain/imports';

/** An import as callers see it (docs/api.md, "Imports"). */
export interface ImportView {
  id: string;
  type: ImportSnapshot['type'];
  status: ImportSnapshot['status'];
  dryRun: boolean;
  notify: ImportSnapshot['notify'];
  fileName: string;
  /** The encoding and delimiter the dry run found; null until it has read the header. */
  format: ImportFormat | null;
  /** The messages a confirm would send (per template and channel), counted by the dry run; null before it. */
  messages: ImportMessages | null;
  totalRows: number;
  validRows: number;
  /** Data rows with at least one error (a row counts once); `errorCount` counts the errors. */
  rowsWithErrors: number;
  importedRows: number;
  errorCount: number;
  progress: { processed: number; total: number };
  createdAt: string;
  completedAt: string | null;
  createdBy: string;
  confirmedBy: string | null;
}

export interface ImportWithErrors extends ImportView {
  errors: RowError[];
  /** `nextCursor`: the signed position of the next page (`?errorsCursor`), null on the last page. */
  errorsPage: { offset: number; limit: number; total: number; hasMore: boolean; nextCursor: string | null };
}

export function importView(i: ImportSnapshot): ImportView {
  return {
    id: i.id,
    type: i.type,
    status: i.status,
    dryRun: !i.autoConfirm,
    notify: i.notify,
    fileName: i.fileName,
    format: i.format,
    messages: i.messages,
    totalRows: i.totalRows,
    validRows: i.validRows,
    rowsWithErrors: i.rowsWithErrors,
    importedRows: i.importedRows,
    errorCount: i.errorCount,
    progress: { processed: i.processed, total: i.totalRows },
    createdAt: i.createdAt,
    completedAt: i.completedAt,
    createdBy: i.createdBy,
    confirmedBy: i.confirmedBy,
  };
}

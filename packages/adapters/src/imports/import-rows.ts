import type {
  CsvImportFormat,
  ImportFormat,
  ImportMessages,
  ImportProgress,
  ImportSnapshot,
  ImportStatus,
  ImportType,
  RowError,
} from '@fundi/domain/imports';

/** An import's and an import error's rows <-> their snapshots: what the SQL repository reads and writes. */

export type Row = Record<string, unknown>;

export const COLUMNS: Record<keyof ImportProgress | 'completedAt' | 'confirmedBy' | 'format' | 'messages', string> = {
  totalRows: 'total_rows',
  validRows: 'valid_rows',
  rowsWithErrors: 'rows_with_errors',
  importedRows: 'imported_rows',
  errorCount: 'error_count',
  processed: 'processed',
  completedAt: 'completed_at',
  confirmedBy: 'confirmed_by',
  format: 'file_format',
  messages: 'predicted_messages',
};

/** Formats stored before workbooks were read name no `file`: they are CSV. */
function formatOf(f: ImportFormat | Omit<CsvImportFormat, 'file'>): ImportFormat {
  return 'file' in f ? f : { file: 'csv', ...f };
}

export function fromRow(r: Row): ImportSnapshot {
  return {
    id: r.id as string,
    tenantId: r.tenant_id as string,
    type: r.type as ImportType,
    status: r.status as ImportStatus,
    fileName: r.file_name as string,
    fileKey: r.file_key as string,
    autoConfirm: Boolean(r.auto_confirm),
    notify: r.notify === 'none' ? 'none' : 'all',
    format: r.file_format ? formatOf(JSON.parse(r.file_format as string) as ImportFormat) : null,
    sheet: (r.sheet ?? null) as string | null,
    messages: r.predicted_messages ? (JSON.parse(r.predicted_messages as string) as ImportMessages) : null,
    columnMap: r.column_map ? (JSON.parse(r.column_map as string) as Record<string, string>) : {},
    totalRows: Number(r.total_rows),
    validRows: Number(r.valid_rows),
    rowsWithErrors: Number(r.rows_with_errors),
    importedRows: Number(r.imported_rows),
    errorCount: Number(r.error_count),
    processed: Number(r.processed),
    createdBy: r.created_by as string,
    confirmedBy: (r.confirmed_by ?? null) as string | null,
    createdAt: r.created_at as string,
    completedAt: (r.completed_at ?? null) as string | null,
  };
}

export function errorOf(r: Row): RowError {
  const e: RowError = { row: Number(r.row), field: r.field as string, error: r.error as string };
  if (r.value != null) e.value = r.value as string;
  if (r.learner_name != null || r.learner_id_number != null)
    e.learner = {
      name: (r.learner_name ?? null) as string | null,
      idNumber: (r.learner_id_number ?? null) as string | null,
    };
  return e;
}

/** `SET a = ?, b = ?` of the given counters, in a fixed column order. */
export function setClause(set: Partial<Record<keyof typeof COLUMNS, unknown>>): { sql: string; values: unknown[] } {
  const keys = (Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]).filter((k) => set[k] !== undefined);
  return {
    sql: keys.map((k) => `, ${COLUMNS[k]} = ?`).join(''),
    values: keys.map((k) => (k === 'format' || k === 'messages' ? JSON.stringify(set[k]) : set[k])),
  };
}

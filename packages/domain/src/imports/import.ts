import { DomainError } from '../common/errors.js';
import type { Page, PageRequest } from '../common/paging.js';

/**
 * What a CSV import creates, one type per file (docs/api.md, "Imports"): one of the import kinds the capabilities
 * offer (docs/architecture.md, "A capability's anatomy").
 */
export type ImportType = string;

/**
 * `validating` -> `validated` | `failed`; `validated` -> `importing` (confirm) -> `completed`. `failed` means the
 * file as a whole could not be read (not CSV, not UTF-8, a required column missing, no rows), or a validation or
 * confirm kept failing for a reason of the system until its last attempt; row errors alone leave an import
 * `validated` with fewer valid rows.
 */
export const IMPORT_STATUSES = ['validating', 'validated', 'failed', 'importing', 'completed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** The text encodings an import reads (docs/api.md, "Imports"), as found in the file. */
export const IMPORT_ENCODINGS = ['utf-8', 'utf-8-bom', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export type ImportEncoding = (typeof IMPORT_ENCODINGS)[number];
/** The cell separators an import reads, found from the header row. */
export const IMPORT_DELIMITERS = [',', ';', '\t'] as const;
export type ImportDelimiter = (typeof IMPORT_DELIMITERS)[number];

/** A CSV file as its dry run read it: the text encoding and the cell separator found. */
export interface CsvImportFormat {
  file: 'csv';
  encoding: ImportEncoding;
  delimiter: ImportDelimiter;
}
/** An Excel workbook (.xlsx) as its dry run read it: the sheet whose rows were imported. */
export interface XlsxImportFormat {
  file: 'xlsx';
  sheet: string;
}
/** How the file was read: what its dry run found (docs/api.md, "Imports"). */
export type ImportFormat = CsvImportFormat | XlsxImportFormat;
/** The kinds of file an import reads, found from the content (never from the name). */
export const IMPORT_FILE_KINDS = ['csv', 'xlsx'] as const;
export type ImportFileKind = (typeof IMPORT_FILE_KINDS)[number];
/** Characters of a sheet name (Excel allows at most 31). */
export const IMPORT_MAX_SHEET_CHARS = 31;

/** Messages of one template a confirm would send, by channel. */
export interface ImportMessageCount {
  template: string;
  email: number;
  whatsapp: number;
}
/** The messages a confirm of the import would send, as its dry run counted them (docs/api.md, "Imports"). */
export interface ImportMessages {
  email: number;
  whatsapp: number;
  templates: ImportMessageCount[];
}

/** Whether the rows of an import message learners: `all` (new learners), `none` (history being backfilled). */
export const IMPORT_NOTIFY = ['all', 'none'] as const;
export type ImportNotify = (typeof IMPORT_NOTIFY)[number];
/** An imported assessment dated more than this many days before its import is history: it never messages the learner. */
export const IMPORT_HISTORY_DAYS = 30;

/** Data rows one file may hold, and its size in bytes. */
export const IMPORT_MAX_ROWS = 100_000;
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/**
 * Cells one row may hold, and its length in bytes (a row: one line of the file, or several when a quoted cell holds
 * line breaks). Far above any import's columns; they stop a file of nonsense (a line of millions of commas, a quote
 * that never closes) from being parsed into memory.
 */
export const IMPORT_MAX_CELLS = 200;
export const IMPORT_MAX_ROW_BYTES = 64 * 1024;
/** Rows written per transaction on confirm. */
export const IMPORT_BATCH_ROWS = 1000;

/** The learner a row names, beside its errors: the name and ID number as the row gives them. */
export interface RowLearner {
  name: string | null;
  idNumber: string | null;
}

/**
 * One problem: `row` is the row a spreadsheet shows (header = 1), `field` the CSV column (or `file`), `value` the
 * cell as the file gives it (cut to 100 characters) and `learner` whom the row names, where the row has them.
 */
export interface RowError {
  row: number;
  field: string;
  error: string;
  value?: string;
  learner?: RowLearner;
}

/** Cells are cut to this many characters when an error repeats them. */
export const ROW_ERROR_VALUE_CHARS = 100;

export interface ImportSnapshot {
  id: string;
  tenantId: string;
  type: ImportType;
  status: ImportStatus;
  fileName: string;
  /** Where the uploaded file is kept, encrypted, in the file store. */
  fileKey: string;
  /** Confirm by itself once validation passes (`options.dryRun: false`). */
  autoConfirm: boolean;
  /** Whether the rows' notification triggers fire (`options.notify`); webhooks get the events either way. */
  notify: ImportNotify;
  /**
   * Header names (without case, spaces or punctuation) read as columns: the tenant's saved mapping with the one given
   * with the upload, fixed at upload so the dry run and confirm read the file alike.
   */
  columnMap: Readonly<Record<string, string>>;
  /** How the file was read (encoding, delimiter), once its validation has read it; null before. */
  format: ImportFormat | null;
  /** The sheet of a workbook to import (`options.sheet`); null: the first sheet (and for CSV). */
  sheet: string | null;
  /** The messages a confirm would send, counted by the dry run; null before it (or when it failed). */
  messages: ImportMessages | null;
  /** Data rows in the file (the header not counted). */
  totalRows: number;
  /** Rows without errors at the last check (validation, then confirm). */
  validRows: number;
  /** Data rows with at least one error at the last check (a row counts once, however many errors it has). */
  rowsWithErrors: number;
  /** Rows written by confirm so far. */
  importedRows: number;
  errorCount: number;
  /** Data rows processed by the running step; on confirm, the rows whose batch committed. */
  processed: number;
  createdBy: string;
  confirmedBy: string | null;
  createdAt: string;
  completedAt: string | null;
}

/** The counters a step records with its state change. */
export type ImportProgress = Pick<
  ImportSnapshot,
  'totalRows' | 'validRows' | 'rowsWithErrors' | 'importedRows' | 'errorCount' | 'processed'
>;

export const ImportRecord = {
  /**
   * Confirm is allowed only from `validated`, and only with a row to write: any other state, or a file without one
   * valid row, is a conflict and nothing is written.
   */
  assertConfirmable(i: ImportSnapshot): void {
    if (i.status !== 'validated')
      throw DomainError.conflict(
        'import_not_confirmable',
        `The import is ${i.status}; only a validated import can be confirmed, once`,
        [{ field: 'status', message: `is ${i.status}, not validated` }],
        { currentStatus: i.status },
      );
    if (i.validRows === 0)
      throw DomainError.conflict(
        'import_not_confirmable',
        'The import has no valid rows: there is nothing to confirm; correct the file and upload it again',
        [{ field: 'validRows', message: 'is 0' }],
        { currentStatus: i.status },
      );
  },
};

/** Port: imports and their row errors. Scoped by tenant; another tenant's import is "not found". */
export interface ImportRepository {
  insert(i: ImportSnapshot): Promise<void>;
  findById(tenantId: string, id: string): Promise<ImportSnapshot | null>;
  /** Ordered by id (creation order). */
  list(
    tenantId: string,
    filter: { status?: ImportStatus; type?: ImportType },
    page: PageRequest,
  ): Promise<Page<ImportSnapshot>>;
  /**
   * Moves the import from `from` to `to` with the given counters (and `completedAt`, `confirmedBy` when given);
   * false, changing nothing, when the stored status is no longer `from` (someone else moved it first).
   */
  transition(
    tenantId: string,
    id: string,
    from: ImportStatus,
    to: ImportStatus,
    set: Partial<ImportProgress> & {
      completedAt?: string;
      confirmedBy?: string;
      format?: ImportFormat;
      messages?: ImportMessages;
    },
  ): Promise<boolean>;
  /**
   * Records counters without a state change; false, changing nothing, when the import is not `status` or (when
   * given) its `processed` is not `expectProcessed` (another run committed this batch first).
   */
  recordProgress(
    tenantId: string,
    id: string,
    status: ImportStatus,
    set: Partial<ImportProgress>,
    expectProcessed?: number,
  ): Promise<boolean>;
  /** Appends errors after those stored; `seq` continues the import's order. */
  addErrors(importId: string, fromSeq: number, errors: readonly RowError[]): Promise<void>;
  /** Erasure: removes the values and learners the errors of these imports repeat (their text stays). */
  forgetErrorDetails(importIds: readonly string[]): Promise<void>;
  /** Removes every stored error of the import (a step starting over). */
  clearErrors(importId: string): Promise<void>;
  /** In the order they were added. */
  errors(importId: string, offset: number, limit: number): Promise<RowError[]>;
  /** The tenant's saved column mapping of an import type (header name without case, spaces or punctuation -> column). */
  columnMap(tenantId: string, type: ImportType): Promise<Record<string, string>>;
  /** Saves entries of the mapping (a null column forgets the header); the others stay. */
  saveColumnMap(tenantId: string, type: ImportType, entries: Readonly<Record<string, string | null>>): Promise<void>;
  /** Retention: up to `limit` imports that finished (completed or failed) before `before`, earliest first. */
  finishedBefore(before: string, limit: number): Promise<Pick<ImportSnapshot, 'tenantId' | 'id' | 'fileKey'>[]>;
  /** Retention: deletes the imports with their row errors; returns how many imports went. */
  deleteMany(ids: readonly string[]): Promise<number>;
}

export interface ImportRepos {
  imports: ImportRepository;
}

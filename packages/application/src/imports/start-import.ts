import type { Readable } from 'node:stream';
import {
  DomainError,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_MAX_SHEET_CHARS,
  IMPORT_NOTIFY,
  IMPORT_TYPES,
  UNSAFE_FILE_NAME_MESSAGE,
  isSafeFileName,
  isSafeText,
  newId,
  type ImportNotify,
  type ImportSnapshot,
  type ImportType,
  type XlsxImportFormat,
} from '@fundi/domain';
import { enqueueJob } from '../jobs/job-definition.js';
import type { Actor } from '../common/actor.js';
import { UploadFields } from '../common/upload-fields.js';
import { recordChange } from '../common/record-change.js';
import { fileKeyOf, stagedKeyOf, VALIDATE_IMPORT, type ImportDeps } from './import-ports.js';
import { importView, type ImportWithErrors } from './import-view.js';
import { looseKey } from './cell-values.js';
import { IMPORT_KINDS } from './import-walk.js';
import { CsvFileError } from './csv-reader.js';

export interface StartImportInput {
  type: unknown;
  /** JSON text `{"dryRun": boolean, "columns": {header: column}}`; absent = a dry run. */
  options?: unknown;
}

interface ImportOptions {
  dryRun: boolean;
  notify: ImportNotify;
  /** Header name (as loose key) -> column, or null to forget a saved entry. */
  columns: Record<string, string | null>;
  /** The sheet of a workbook to read (null: the first). */
  sheet: string | null;
}

const OPTION_NAMES = ['dryRun', 'notify', 'columns', 'sheet'];

function parseOptions(type: ImportType, raw: unknown): ImportOptions {
  if (raw === undefined || raw === '') return { dryRun: true, notify: 'all', columns: {}, sheet: null };
  let v: unknown;
  try {
    v = typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    throw DomainError.invalid('options', 'must be JSON text such as {"dryRun": false}');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw DomainError.invalid('options', 'must be an object');
  const o = v as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !OPTION_NAMES.includes(k));
  if (unknown) throw DomainError.invalid(`options.${unknown}`, `is not a known option (${OPTION_NAMES.join(', ')})`);
  if (o.dryRun !== undefined && typeof o.dryRun !== 'boolean')
    throw DomainError.invalid('options.dryRun', 'must be true or false');
  if (o.notify !== undefined && !IMPORT_NOTIFY.includes(o.notify as ImportNotify))
    throw DomainError.invalid(
      'options.notify',
      'must be "all" (message new learners) or "none" (history: tell nobody)',
    );
  if (
    o.sheet !== undefined &&
    o.sheet !== null &&
    (typeof o.sheet !== 'string' || !o.sheet.trim() || o.sheet.length > IMPORT_MAX_SHEET_CHARS || !isSafeText(o.sheet))
  )
    throw DomainError.invalid(
      'options.sheet',
      `must be the name of a sheet of the workbook (at most ${IMPORT_MAX_SHEET_CHARS} characters of plain text)`,
    );
  return {
    dryRun: o.dryRun !== false,
    notify: (o.notify as ImportNotify) ?? 'all',
    columns: parseColumns(type, o.columns),
    sheet: typeof o.sheet === 'string' ? o.sheet.trim() : null,
  };
}

/** `{"Surname": "last_name"}`: each header name to a column of the type, or null to forget a saved entry. */
function parseColumns(type: ImportType, raw: unknown): Record<string, string | null> {
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw DomainError.invalid(
      'options.columns',
      'must be an object of header names to columns, such as {"Surname": "last_name"}',
    );
  const known = new Map(IMPORT_KINDS[type]().columns.map((c) => [looseKey(c.name), c.name]));
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > MAX_MAPPED)
    throw DomainError.invalid('options.columns', `maps at most ${MAX_MAPPED} header names`);
  const out: Record<string, string | null> = {};
  for (const [header, column] of entries) {
    const key = looseKey(header);
    if (!key || header.length > 200 || !isSafeText(header))
      throw DomainError.invalid(
        'options.columns',
        'has a header name that is empty, longer than 200 characters or not plain text',
      );
    if (column === null) {
      out[key] = null;
      continue;
    }
    const to = typeof column === 'string' ? known.get(looseKey(column)) : undefined;
    if (!to)
      throw DomainError.invalid(
        `options.columns.${header}`,
        `must be a ${type} column (${[...known.values()].join(', ')}) or null to forget it`,
      );
    out[key] = to;
  }
  return out;
}

/** Header names one upload may map. */
const MAX_MAPPED = 200;

function parseRequest(input: StartImportInput): { type: ImportType; options: ImportOptions } {
  const type = input.type as ImportType;
  if (!IMPORT_TYPES.includes(type)) throw DomainError.invalid('type', `must be one of ${IMPORT_TYPES.join(', ')}`);
  return { type, options: parseOptions(type, input.options) };
}

/**
 * Accepts an uploaded CSV or workbook (.xlsx, told by its content; read through once to check it is one): stores it encrypted while counting its rows (more than 100,000 data rows or 50 MB is
 * refused and nothing is kept), records the import `validating` and queues the dry run (docs/api.md, "Imports").
 */
export class StartImport {
  constructor(private readonly d: ImportDeps) {}

  async execute(
    actor: Actor,
    fields: StartImportInput | UploadFields<StartImportInput>,
    file: { stream: Readable; filename: string | null; staged?: XlsxImportFormat },
  ): Promise<ImportWithErrors> {
    const now = this.d.clock.now();
    const id = newId('imp', now.getTime());
    let key = fileKeyOf(actor.tenantId, id);
    const counter = this.d.csv.rowLimit(IMPORT_MAX_ROWS);
    const { checked, stored } = await UploadFields.of(fields).checkAround({
      check: (input) => {
        if (file.filename && !isSafeFileName(file.filename))
          throw DomainError.invalid('file', `has a file name that ${UNSAFE_FILE_NAME_MESSAGE}`);
        return parseRequest(input);
      },
      abandon: () => file.stream.resume(),
      store: () => {
        file.stream.on('error', (e) => counter.destroy(e));
        return this.d.files.store(key, file.stream.pipe(counter), {
          maxBytes: IMPORT_MAX_BYTES,
          as: { contentType: 'text/csv', kind: 'document' },
        });
      },
      undo: () => this.d.files.remove(key),
    });
    const { type, options } = checked;
    // A workbook is read once, now, into its staged rows (a CSV the dry run and the confirm read); the staged rows
    // of one (an import read again with a mapping) are that CSV already.
    let sheet: { format: XlsxImportFormat; dataRows: number } | null = null;
    if (counter.kind() === 'xlsx') {
      sheet = await this.stageWorkbook(key, stored.size, stagedKeyOf(actor.tenantId, id), options.sheet);
      key = stagedKeyOf(actor.tenantId, id);
    } else if (file.staged) sheet = { format: file.staged, dataRows: counter.dataRows() };
    else if (options.sheet !== null) {
      await this.d.files.remove(key);
      throw DomainError.invalid('options.sheet', 'is for Excel workbooks (.xlsx); this file is CSV');
    }
    const columnMap = { ...(await this.d.repos.imports.columnMap(actor.tenantId, type)) };
    for (const [header, column] of Object.entries(options.columns))
      if (column === null) delete columnMap[header];
      else columnMap[header] = column;
    const imp: ImportSnapshot = {
      id,
      tenantId: actor.tenantId,
      type,
      status: 'validating',
      fileName: (file.filename ?? `${type}.${sheet ? 'xlsx' : 'csv'}`).slice(0, 255),
      fileKey: key,
      autoConfirm: !options.dryRun,
      notify: options.notify,
      columnMap,
      format: sheet?.format ?? null,
      sheet: options.sheet,
      messages: null,
      totalRows: sheet?.dataRows ?? counter.dataRows(),
      validRows: 0,
      rowsWithErrors: 0,
      importedRows: 0,
      errorCount: 0,
      processed: 0,
      createdBy: actor.id,
      confirmedBy: null,
      createdAt: now.toISOString(),
      completedAt: null,
    };
    try {
      await this.d.uow.run(async (tx) => {
        await tx.imports.insert(imp);
        // Saved for the tenant's next file of this type (docs/api.md, "Imports").
        if (Object.keys(options.columns).length) await tx.imports.saveColumnMap(actor.tenantId, type, options.columns);
        await enqueueJob(tx.jobs, VALIDATE_IMPORT, { tenantId: imp.tenantId, importId: id }, { now });
        await recordChange(tx, actor, now, {
          action: 'import.created',
          resourceType: 'import',
          resourceId: id,
          details: { type, dryRun: options.dryRun, notify: options.notify, rows: imp.totalRows },
        });
      });
    } catch (e) {
      await this.d.files.remove(key);
      throw e;
    }
    return {
      ...importView(imp),
      errors: [],
      errorsPage: { offset: 0, limit: 0, total: 0, hasMore: false, nextCursor: null },
    };
  }

  /**
   * A stored workbook (of `size` bytes) is read by byte ranges into its staged rows (stored at `staged`) before the
   * upload is answered, and the workbook removed: one that is no workbook, is broken, lacks the sheet named or
   * passes a limit is refused (invalid input) and nothing of it is kept.
   */
  private async stageWorkbook(
    key: string,
    size: number,
    staged: string,
    sheet: string | null,
  ): Promise<{ format: XlsxImportFormat; dataRows: number }> {
    try {
      const file = { size, open: (range: { start: number; end: number }) => this.d.files.open(key, range) };
      const rows = this.d.csv.stageWorkbook(file, sheet, IMPORT_MAX_ROWS);
      await this.d.files.store(staged, rows, {
        maxBytes: IMPORT_MAX_STAGED_BYTES,
        as: { contentType: 'text/csv', kind: 'document' },
      });
      const done = rows.staged();
      if (!done) throw new Error('the staged rows of a workbook ended without its sheet');
      return done;
    } catch (e) {
      await this.d.files.remove(staged);
      if (e instanceof CsvFileError) throw DomainError.invalid(e.problem.field, e.problem.error);
      throw e;
    } finally {
      await this.d.files.remove(key);
    }
  }
}

/**
 * The staged rows of a workbook may be larger than the workbook (its XML is compressed; the CSV is not): bounded
 * apart, well above what 100,000 rows of a spreadsheet hold.
 */
const IMPORT_MAX_STAGED_BYTES = 4 * IMPORT_MAX_BYTES;

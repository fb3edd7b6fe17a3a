import type { Readable } from 'node:stream';
import { DomainError, UNSAFE_FILE_NAME_MESSAGE, isSafeFileName, newId } from '@fundi/domain';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, type ImportSnapshot, type XlsxImportFormat } from '@fundi/domain/imports';
import { enqueueJob } from '../jobs/job-definition.js';
import type { Actor } from '../common/actor.js';
import { UploadFields } from '../common/upload-fields.js';
import { recordChange } from '../common/record-change.js';
import { fileKeyOf, stagedKeyOf, VALIDATE_IMPORT, type ImportDeps } from './import-ports.js';
import { importView, type ImportWithErrors } from './import-view.js';
import { parseRequest, type StartImportInput } from './import-request.js';
import { stageWorkbook } from './stage-workbook.js';

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
        return parseRequest(this.d.kinds, input);
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
      sheet = await stageWorkbook(this.d, key, stored.size, stagedKeyOf(actor.tenantId, id), options.sheet);
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
}

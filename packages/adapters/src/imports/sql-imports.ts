import type { PageRequest } from '@fundi/domain';
import type {
  ImportFormat,
  ImportMessages,
  ImportProgress,
  ImportRepos,
  ImportRepository,
  ImportSnapshot,
  ImportStatus,
  ImportType,
  RowError,
} from '@fundi/domain/imports';
import { importMemory } from '@fundi/memory/imports';
import type { Knex } from 'knex';
import type { SqlDb } from '../db/sql-db.js';
import { errorOf, fromRow, setClause, type Row } from './import-rows.js';
import { marks } from '../db/sql-helpers.js';
import { pageQuery } from '../db/paging.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';
import { importsMigration } from './migrations/202611232304-imports.js';
import { importReportMigration } from './migrations/202611271245-import-report.js';
import { columnMapsMigration } from './migrations/202611271317-column-maps.js';
import { fileFormatMigration } from './migrations/202611271328-file-format.js';
import { importNotifyMigration } from './migrations/202611271350-notify.js';
import { importSheetMigration } from './migrations/202611271615-sheet.js';
import { importMessagesMigration } from './migrations/202611271645-predicted-messages.js';

/** Rows per multi-row INSERT of errors (under SQLite's 999 bound parameters at 8 per row). */
const ERROR_CHUNK = 120;

export class SqlImportRepository implements ImportRepository {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  async insert(i: ImportSnapshot) {
    await this.db.run(
      `INSERT INTO imports (id, tenant_id, type, status, file_name, file_key, auto_confirm, notify, column_map, sheet, file_format, total_rows,
        valid_rows, rows_with_errors, imported_rows, error_count, processed, created_by, confirmed_by, created_at, completed_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        i.id,
        i.tenantId,
        i.type,
        i.status,
        i.fileName,
        i.fileKey,
        i.autoConfirm,
        i.notify,
        Object.keys(i.columnMap).length ? JSON.stringify(i.columnMap) : null,
        i.sheet,
        // A workbook's format is known at upload (its rows are staged then); a CSV's once its dry run read it.
        i.format ? JSON.stringify(i.format) : null,
        i.totalRows,
        i.validRows,
        i.rowsWithErrors,
        i.importedRows,
        i.errorCount,
        i.processed,
        i.createdBy,
        i.confirmedBy,
        i.createdAt,
        i.completedAt,
      ],
    );
  }

  async findById(tenantId: string, id: string) {
    const r = await this.db.first<Row>('SELECT * FROM imports WHERE id = ? AND tenant_id = ?', [id, tenantId]);
    return r ? fromRow(r) : null;
  }

  list(tenantId: string, f: { status?: ImportStatus; type?: ImportType }, page: PageRequest) {
    const q = this.qb('imports').select('*').where('tenant_id', tenantId);
    if (f.status) q.where('status', f.status);
    if (f.type) q.where('type', f.type);
    return pageQuery(this.db, q, page, fromRow);
  }

  async transition(
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
  ) {
    const s = setClause(set);
    const r = await this.db.run(`UPDATE imports SET status = ?${s.sql} WHERE id = ? AND tenant_id = ? AND status = ?`, [
      to,
      ...(s.values as string[]),
      id,
      tenantId,
      from,
    ]);
    return r.changes === 1;
  }

  async recordProgress(
    tenantId: string,
    id: string,
    status: ImportStatus,
    set: Partial<ImportProgress>,
    expectProcessed?: number,
  ) {
    const s = setClause({ processed: expectProcessed, ...set });
    const expect = expectProcessed === undefined ? '' : ' AND processed = ?';
    const r = await this.db.run(
      `UPDATE imports SET ${s.sql.slice(2)} WHERE id = ? AND tenant_id = ? AND status = ?${expect}`,
      [...(s.values as number[]), id, tenantId, status, ...(expectProcessed === undefined ? [] : [expectProcessed])],
    );
    return r.changes === 1;
  }

  async addErrors(importId: string, fromSeq: number, errors: readonly RowError[]) {
    for (let at = 0; at < errors.length; at += ERROR_CHUNK) {
      const chunk = errors.slice(at, at + ERROR_CHUNK);
      const values: (string | number | null)[] = [];
      chunk.forEach(
        (e, n) =>
          void values.push(
            importId,
            fromSeq + at + n,
            e.row,
            e.field,
            e.error,
            e.value ?? null,
            e.learner?.name ?? null,
            e.learner?.idNumber ?? null,
          ),
      );
      await this.db.run(
        `INSERT INTO import_errors (import_id, seq, "row", field, error, value, learner_name, learner_id_number)
         VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        values,
      );
    }
  }

  async forgetErrorDetails(importIds: readonly string[]) {
    if (importIds.length === 0) return;
    await this.db.run(
      `UPDATE import_errors SET value = NULL, learner_name = NULL, learner_id_number = NULL
       WHERE import_id IN (${marks(importIds.length)})`,
      importIds,
    );
  }

  async clearErrors(importId: string) {
    await this.db.run('DELETE FROM import_errors WHERE import_id = ?', [importId]);
  }

  async errors(importId: string, offset: number, limit: number) {
    const rows = await this.db.all<Row>(
      `SELECT "row", field, error, value, learner_name, learner_id_number FROM import_errors
       WHERE import_id = ? AND seq >= ? ORDER BY seq LIMIT ?`,
      [importId, offset, limit],
    );
    return rows.map(errorOf);
  }

  async columnMap(tenantId: string, type: ImportType) {
    const rows = await this.db.all<Row>(
      'SELECT header, "column" FROM import_column_maps WHERE tenant_id = ? AND type = ? ORDER BY header',
      [tenantId, type],
    );
    return Object.fromEntries(rows.map((r) => [r.header as string, r.column as string]));
  }

  async saveColumnMap(tenantId: string, type: ImportType, entries: Readonly<Record<string, string | null>>) {
    for (const [header, column] of Object.entries(entries)) {
      await this.db.run('DELETE FROM import_column_maps WHERE tenant_id = ? AND type = ? AND header = ?', [
        tenantId,
        type,
        header,
      ]);
      if (column !== null)
        await this.db.run('INSERT INTO import_column_maps (tenant_id, type, header, "column") VALUES (?, ?, ?, ?)', [
          tenantId,
          type,
          header,
          column,
        ]);
    }
  }

  async finishedBefore(before: string, limit: number) {
    // Imports are few (one per uploaded file): read without an index of their own.
    const rows = await this.db.all<Row>(
      `SELECT tenant_id, id, file_key FROM imports WHERE status IN ('completed', 'failed') AND completed_at < ?
       ORDER BY completed_at LIMIT ?`,
      [before, limit],
    );
    return rows.map((r) => ({ tenantId: String(r.tenant_id), id: String(r.id), fileKey: String(r.file_key) }));
  }

  async deleteMany(ids: readonly string[]) {
    if (ids.length === 0) return 0;
    await this.db.run(`DELETE FROM import_errors WHERE import_id IN (${marks(ids.length)})`, ids);
    return (await this.db.run(`DELETE FROM imports WHERE id IN (${marks(ids.length)})`, ids)).changes;
  }
}

export const importStorage: CapabilityStorage<ImportRepos> = {
  migrations: [
    importsMigration,
    importReportMigration,
    columnMapsMigration,
    fileFormatMigration,
    importNotifyMigration,
    importSheetMigration,
    importMessagesMigration,
  ],
  sql: (db, qb) => ({ imports: new SqlImportRepository(db, qb) }),
  memory: importMemory,
};

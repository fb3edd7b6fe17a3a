import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type {
  ExportRepos,
  ExportRepository,
  ExportSnapshot,
  RegulatorSettings,
  RegulatorSettingsRepository,
} from '@fundi/domain/exports';
import { exportMemory } from '@fundi/memory/exports';
import type { Knex } from 'knex';
import type { Binding, SqlDb } from '../db/sql-db.js';
import { exportsMigration } from './migrations/202611232339-exports.js';
import { exportPurgeReason } from './migrations/202611271017-purge-reason.js';
import { exportProgress } from './migrations/202611271640-progress.js';
import { pageQuery } from '../db/paging.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';

type Row = Record<string, unknown>;
const s = (v: unknown) => (v ?? null) as string | null;
const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const json = <T>(v: unknown): T | null => (v === null || v === undefined ? null : (JSON.parse(v as string) as T));

const COLUMNS = [
  'id',
  'tenant_id',
  'type',
  'format',
  'status',
  'filters',
  'fields',
  'row_count',
  'file_name',
  'size',
  'content_type',
  'storage_key',
  'readiness',
  'error',
  'created_by',
  'created_at',
  'completed_at',
  'expires_at',
  'purged_at',
  'purge_reason',
  'processed_rows',
  'total_rows',
];

function toRow(e: ExportSnapshot): Binding[] {
  return [
    e.id,
    e.tenantId,
    e.type,
    e.format,
    e.status,
    JSON.stringify(e.filters),
    e.fields ? JSON.stringify(e.fields) : null,
    e.rowCount,
    e.fileName,
    e.size,
    e.contentType,
    e.storageKey,
    e.readiness ? JSON.stringify(e.readiness) : null,
    e.error,
    e.createdBy,
    e.createdAt,
    e.completedAt,
    e.expiresAt,
    e.purgedAt,
    e.purgeReason,
    e.processedRows,
    e.totalRows,
  ];
}

function fromRow(r: Row): ExportSnapshot {
  return {
    id: r.id as string,
    tenantId: r.tenant_id as string,
    type: r.type as ExportSnapshot['type'],
    format: r.format as ExportSnapshot['format'],
    status: r.status as ExportSnapshot['status'],
    filters: json(r.filters) ?? {},
    fields: json(r.fields),
    rowCount: n(r.row_count),
    fileName: s(r.file_name),
    size: n(r.size),
    contentType: s(r.content_type),
    storageKey: s(r.storage_key),
    readiness: json(r.readiness),
    error: s(r.error),
    createdBy: r.created_by as string,
    createdAt: r.created_at as string,
    completedAt: s(r.completed_at),
    expiresAt: s(r.expires_at),
    purgedAt: s(r.purged_at),
    purgeReason: s(r.purge_reason) as ExportSnapshot['purgeReason'],
    processedRows: n(r.processed_rows),
    totalRows: n(r.total_rows),
  };
}

const INSERT = `INSERT INTO exports (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;
const UPDATABLE = COLUMNS.slice(2);
const UPDATE = `UPDATE exports SET ${UPDATABLE.map((c) => `${c} = ?`).join(', ')} WHERE tenant_id = ? AND id = ?`;

export class SqlExportRepository implements ExportRepository {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  async insert(e: ExportSnapshot): Promise<void> {
    await this.db.run(INSERT, toRow(e));
  }

  async update(e: ExportSnapshot): Promise<void> {
    const { changes } = await this.db.run(UPDATE, [...toRow(e).slice(2), e.tenantId, e.id]);
    if (changes === 0) throw DomainError.notFound('export', e.id);
  }

  async recordProgress(tenantId: string, id: string, processedRows: number, totalRows: number | null): Promise<void> {
    await this.db.run(
      `UPDATE exports SET processed_rows = ?, total_rows = ? WHERE tenant_id = ? AND id = ? AND status = 'processing'`,
      [processedRows, totalRows, tenantId, id],
    );
  }

  async findById(tenantId: string, id: string): Promise<ExportSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM exports WHERE tenant_id = ? AND id = ?', [tenantId, id]);
    return r ? fromRow(r) : null;
  }

  list(tenantId: string, page: PageRequest): Promise<Page<ExportSnapshot>> {
    return pageQuery(this.db, this.qb('exports').select('*').where('tenant_id', tenantId), page, fromRow);
  }

  async expired(at: string, limit: number): Promise<ExportSnapshot[]> {
    const rows = await this.db.all<Row>(
      `SELECT * FROM exports WHERE status = 'ready' AND expires_at <= ? AND purged_at IS NULL ORDER BY id LIMIT ?`,
      [at, limit],
    );
    return rows.map(fromRow);
  }

  async madeBefore(tenantId: string, at: string, afterId: string | null, limit: number): Promise<ExportSnapshot[]> {
    const rows = await this.db.all<Row>(
      `SELECT * FROM exports WHERE tenant_id = ? AND id > ? AND created_at <= ? ORDER BY id LIMIT ?`,
      [tenantId, afterId ?? '', at, limit],
    );
    return rows.map(fromRow);
  }
}

export class SqlRegulatorSettingsRepository implements RegulatorSettingsRepository {
  constructor(private readonly db: SqlDb) {}

  async get(tenantId: string): Promise<RegulatorSettings | null> {
    const r = await this.db.first<{ settings: string }>('SELECT settings FROM regulator_settings WHERE tenant_id = ?', [
      tenantId,
    ]);
    return r ? (JSON.parse(r.settings) as RegulatorSettings) : null;
  }

  async put(tenantId: string, settings: RegulatorSettings, at: string): Promise<void> {
    const body = JSON.stringify(settings);
    const { changes } = await this.db.run(
      'UPDATE regulator_settings SET settings = ?, updated_at = ? WHERE tenant_id = ?',
      [body, at, tenantId],
    );
    if (changes === 0)
      await this.db.run('INSERT INTO regulator_settings (tenant_id, settings, updated_at) VALUES (?, ?, ?)', [
        tenantId,
        body,
        at,
      ]);
  }
}

export const exportStorage: CapabilityStorage<ExportRepos> = {
  migrations: [exportsMigration, exportPurgeReason, exportProgress],
  sql: (db, qb) => ({
    exports: new SqlExportRepository(db, qb),
    regulatorSettings: new SqlRegulatorSettingsRepository(db),
  }),
  memory: exportMemory,
  // Readiness reports lose the learner's ID numbers.
  erasureTables: ['exports'],
};

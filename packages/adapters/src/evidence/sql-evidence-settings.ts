import type {
  EvidenceBundleRepository,
  EvidenceBundleSnapshot,
  EvidenceSettingsRepository,
  StorageDay,
  StorageHistoryRepository,
} from '@fundi/domain/evidence';
import type { SqlDb } from '../db/sql-db.js';
import type { Row } from './evidence-rows.js';

export class SqlEvidenceBundleRepository implements EvidenceBundleRepository {
  constructor(private readonly db: SqlDb) {}

  async insert(b: EvidenceBundleSnapshot): Promise<void> {
    await this.db.run(
      'INSERT INTO evidence_bundles (id, tenant_id, evidence_ids, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      [b.id, b.tenantId, JSON.stringify(b.evidenceIds), b.createdBy, b.createdAt, b.expiresAt],
    );
  }

  async findById(tenantId: string, id: string): Promise<EvidenceBundleSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM evidence_bundles WHERE tenant_id = ? AND id = ?', [tenantId, id]);
    return r
      ? {
          id: r.id as string,
          tenantId: r.tenant_id as string,
          evidenceIds: JSON.parse(r.evidence_ids as string) as string[],
          createdBy: r.created_by as string,
          createdAt: r.created_at as string,
          expiresAt: r.expires_at as string,
        }
      : null;
  }
}

export class SqlEvidenceSettingsRepository implements EvidenceSettingsRepository {
  constructor(private readonly db: SqlDb) {}

  async retentionYears(tenantId: string): Promise<number | null> {
    const r = await this.db.first<{ retention_years: number }>(
      'SELECT retention_years FROM evidence_settings WHERE tenant_id = ?',
      [tenantId],
    );
    return r ? Number(r.retention_years) : null;
  }

  async setRetentionYears(tenantId: string, years: number): Promise<void> {
    const { changes } = await this.db.run('UPDATE evidence_settings SET retention_years = ? WHERE tenant_id = ?', [
      years,
      tenantId,
    ]);
    if (changes === 0)
      await this.db.run('INSERT INTO evidence_settings (tenant_id, retention_years) VALUES (?, ?)', [tenantId, years]);
  }
}

export class SqlStorageHistoryRepository implements StorageHistoryRepository {
  constructor(private readonly db: SqlDb) {}

  async record(tenantId: string, x: StorageDay): Promise<void> {
    await this.db.run(
      `INSERT INTO storage_usage_daily (tenant_id, day, bytes, files) VALUES (?, ?, ?, ?)
       ON CONFLICT (tenant_id, day) DO UPDATE SET bytes = excluded.bytes, files = excluded.files`,
      [tenantId, x.day, x.bytes, x.files],
    );
  }

  async list(tenantId: string, fromDay: string): Promise<StorageDay[]> {
    const rows = await this.db.all<{ day: string; bytes: unknown; files: unknown }>(
      'SELECT day, bytes, files FROM storage_usage_daily WHERE tenant_id = ? AND day >= ? ORDER BY day',
      [tenantId, fromDay],
    );
    return rows.map((r) => ({ day: r.day, bytes: Number(r.bytes), files: Number(r.files) }));
  }
}

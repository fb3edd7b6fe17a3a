import type { UploadKeyRepository, UploadKeySnapshot } from '@fundi/domain/evidence';
import type { SqlDb } from '../db/sql-db.js';

type Row = Record<string, string | null>;

const uploadOf = (r: Row): UploadKeySnapshot => ({
  tenantId: r.tenant_id!,
  key: r.upload_key!,
  learnerId: r.learner_id!,
  evidenceId: r.evidence_id ?? null,
  createdAt: r.created_at!,
  expiresAt: r.expires_at!,
});

/** Upload keys (docs/dashboard.md, "Learner portal"): a claim is one conditional insert. */
export class SqlUploadKeyRepository implements UploadKeyRepository {
  constructor(private readonly db: SqlDb) {}

  async claim(u: UploadKeySnapshot): Promise<boolean> {
    const { changes } = await this.db.run(
      `INSERT INTO evidence_upload_keys (tenant_id, upload_key, learner_id, evidence_id, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, upload_key) DO NOTHING`,
      [u.tenantId, u.key, u.learnerId, u.evidenceId, u.createdAt, u.expiresAt],
    );
    return changes > 0;
  }

  async find(tenantId: string, key: string): Promise<UploadKeySnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM evidence_upload_keys WHERE tenant_id = ? AND upload_key = ?', [
      tenantId,
      key,
    ]);
    return r ? uploadOf(r) : null;
  }

  async complete(tenantId: string, key: string, evidenceId: string): Promise<void> {
    await this.db.run('UPDATE evidence_upload_keys SET evidence_id = ? WHERE tenant_id = ? AND upload_key = ?', [
      evidenceId,
      tenantId,
      key,
    ]);
  }

  async release(tenantId: string, key: string): Promise<void> {
    await this.db.run('DELETE FROM evidence_upload_keys WHERE tenant_id = ? AND upload_key = ?', [tenantId, key]);
  }

  async deleteExpired(before: string, limit?: number): Promise<number> {
    if (limit === undefined)
      return (await this.db.run('DELETE FROM evidence_upload_keys WHERE expires_at < ?', [before])).changes;
    const pick = 'SELECT upload_key FROM evidence_upload_keys WHERE expires_at < ? ORDER BY expires_at LIMIT ?';
    const sql = `DELETE FROM evidence_upload_keys WHERE ${this.db.dialect.amongPicked('upload_key', pick)}`;
    return (await this.db.run(sql, [before, limit])).changes;
  }
}

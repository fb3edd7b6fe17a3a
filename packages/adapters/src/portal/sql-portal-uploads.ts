import type { PortalUploadRepository, PortalUploadSnapshot } from '@fundi/domain/portal';
import type { SqlDb } from '../db/sql-db.js';

type Row = Record<string, string | null>;

const uploadOf = (r: Row): PortalUploadSnapshot => ({
  tenantId: r.tenant_id!,
  key: r.upload_key!,
  learnerId: r.learner_id!,
  evidenceId: r.evidence_id ?? null,
  createdAt: r.created_at!,
  expiresAt: r.expires_at!,
});

/** The portal's upload keys (docs/dashboard.md, "Learner portal"): a claim is one conditional insert. */
export class SqlPortalUploadRepository implements PortalUploadRepository {
  constructor(private readonly db: SqlDb) {}

  async claim(u: PortalUploadSnapshot): Promise<boolean> {
    const { changes } = await this.db.run(
      `INSERT INTO portal_uploads (tenant_id, upload_key, learner_id, evidence_id, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, upload_key) DO NOTHING`,
      [u.tenantId, u.key, u.learnerId, u.evidenceId, u.createdAt, u.expiresAt],
    );
    return changes > 0;
  }

  async find(tenantId: string, key: string): Promise<PortalUploadSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM portal_uploads WHERE tenant_id = ? AND upload_key = ?', [
      tenantId,
      key,
    ]);
    return r ? uploadOf(r) : null;
  }

  async complete(tenantId: string, key: string, evidenceId: string): Promise<void> {
    await this.db.run('UPDATE portal_uploads SET evidence_id = ? WHERE tenant_id = ? AND upload_key = ?', [
      evidenceId,
      tenantId,
      key,
    ]);
  }

  async release(tenantId: string, key: string): Promise<void> {
    await this.db.run('DELETE FROM portal_uploads WHERE tenant_id = ? AND upload_key = ?', [tenantId, key]);
  }

  async deleteExpired(before: string, limit?: number): Promise<number> {
    if (limit === undefined)
      return (await this.db.run('DELETE FROM portal_uploads WHERE expires_at < ?', [before])).changes;
    const pick = 'SELECT upload_key FROM portal_uploads WHERE expires_at < ? ORDER BY expires_at LIMIT ?';
    const sql = `DELETE FROM portal_uploads WHERE ${this.db.dialect.amongPicked('upload_key', pick)}`;
    return (await this.db.run(sql, [before, limit])).changes;
  }
}

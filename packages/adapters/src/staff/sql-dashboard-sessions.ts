import type { DashboardSessionRepository, DashboardSessionSnapshot } from '@fundi/domain/staff';
import type { SqlDb } from '../db/sql-db.js';

type Row = Record<string, string | null>;

const sessionOf = (r: Row): DashboardSessionSnapshot => ({
  tokenHash: r.token_hash!,
  tenantId: r.tenant_id!,
  userId: r.user_id!,
  csrfToken: r.csrf_token!,
  createdAt: r.created_at!,
  expiresAt: r.expires_at!,
});

/** Dashboard sessions: a cookie's token hash, its user and its CSRF token, until it expires. */
export class SqlDashboardSessionRepository implements DashboardSessionRepository {
  constructor(private readonly db: SqlDb) {}

  async insert(s: DashboardSessionSnapshot): Promise<void> {
    await this.db.run(
      'INSERT INTO dashboard_sessions (token_hash, tenant_id, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      [s.tokenHash, s.tenantId, s.userId, s.csrfToken, s.createdAt, s.expiresAt],
    );
  }

  async find(tokenHash: string): Promise<DashboardSessionSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM dashboard_sessions WHERE token_hash = ?', [tokenHash]);
    return r ? sessionOf(r) : null;
  }

  async delete(tokenHash: string): Promise<void> {
    await this.db.run('DELETE FROM dashboard_sessions WHERE token_hash = ?', [tokenHash]);
  }

  async deleteForUser(tenantId: string, userId: string): Promise<number> {
    const { changes } = await this.db.run('DELETE FROM dashboard_sessions WHERE tenant_id = ? AND user_id = ?', [
      tenantId,
      userId,
    ]);
    return changes;
  }

  async deleteExpired(before: string, limit?: number): Promise<number> {
    if (limit === undefined)
      return (await this.db.run('DELETE FROM dashboard_sessions WHERE expires_at < ?', [before])).changes;
    const pick = 'SELECT token_hash FROM dashboard_sessions WHERE expires_at < ? ORDER BY expires_at LIMIT ?';
    const sql = `DELETE FROM dashboard_sessions WHERE ${this.db.dialect.amongPicked('token_hash', pick)}`;
    return (await this.db.run(sql, [before, limit])).changes;
  }
}

import type {
  PortalSessionRepository,
  PortalSessionSnapshot,
  PortalSignInRepository,
  PortalSignInSnapshot,
} from '@fundi/domain/portal';
import type { SqlDb } from '../db/sql-db.js';

type Row = Record<string, string | null>;

const signInOf = (r: Row): PortalSignInSnapshot => ({
  tokenHash: r.token_hash!,
  tenantId: r.tenant_id!,
  learnerId: r.learner_id!,
  channel: r.channel as PortalSignInSnapshot['channel'],
  createdAt: r.created_at!,
  expiresAt: r.expires_at!,
  usedAt: r.used_at ?? null,
});

const sessionOf = (r: Row): PortalSessionSnapshot => ({
  tokenHash: r.token_hash!,
  tenantId: r.tenant_id!,
  learnerId: r.learner_id!,
  csrfToken: r.csrf_token!,
  createdAt: r.created_at!,
  expiresAt: r.expires_at!,
});

/** Deletes rows of `table` expired before `before`, the earliest first, at most `limit` of them. */
async function deleteExpired(db: SqlDb, table: string, before: string, limit?: number): Promise<number> {
  if (limit === undefined) return (await db.run(`DELETE FROM ${table} WHERE expires_at < ?`, [before])).changes;
  const pick = `SELECT token_hash FROM ${table} WHERE expires_at < ? ORDER BY expires_at LIMIT ?`;
  return (await db.run(`DELETE FROM ${table} WHERE ${db.dialect.amongPicked('token_hash', pick)}`, [before, limit]))
    .changes;
}

export class SqlPortalSignInRepository implements PortalSignInRepository {
  constructor(private readonly db: SqlDb) {}

  async insert(s: PortalSignInSnapshot): Promise<void> {
    await this.db.run(
      'INSERT INTO portal_sign_ins (token_hash, tenant_id, learner_id, channel, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [s.tokenHash, s.tenantId, s.learnerId, s.channel, s.createdAt, s.expiresAt, s.usedAt],
    );
  }

  async consume(tokenHash: string, at: string): Promise<PortalSignInSnapshot | null> {
    // One conditional write: of two requests with the same link, only the first changes the row.
    const { changes } = await this.db.run(
      'UPDATE portal_sign_ins SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
      [at, tokenHash, at],
    );
    if (changes === 0) return null;
    const r = await this.db.first<Row>('SELECT * FROM portal_sign_ins WHERE token_hash = ?', [tokenHash]);
    return r ? signInOf(r) : null;
  }

  async deleteForLearner(tenantId: string, learnerId: string): Promise<number> {
    const sql = 'DELETE FROM portal_sign_ins WHERE tenant_id = ? AND learner_id = ? AND used_at IS NULL';
    return (await this.db.run(sql, [tenantId, learnerId])).changes;
  }

  deleteExpired(before: string, limit?: number): Promise<number> {
    return deleteExpired(this.db, 'portal_sign_ins', before, limit);
  }
}

export class SqlPortalSessionRepository implements PortalSessionRepository {
  constructor(private readonly db: SqlDb) {}

  async insert(s: PortalSessionSnapshot): Promise<void> {
    await this.db.run(
      'INSERT INTO portal_sessions (token_hash, tenant_id, learner_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      [s.tokenHash, s.tenantId, s.learnerId, s.csrfToken, s.createdAt, s.expiresAt],
    );
  }

  async find(tokenHash: string): Promise<PortalSessionSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM portal_sessions WHERE token_hash = ?', [tokenHash]);
    return r ? sessionOf(r) : null;
  }

  async delete(tokenHash: string): Promise<void> {
    await this.db.run('DELETE FROM portal_sessions WHERE token_hash = ?', [tokenHash]);
  }

  async deleteForLearner(tenantId: string, learnerId: string): Promise<number> {
    const sql = 'DELETE FROM portal_sessions WHERE tenant_id = ? AND learner_id = ?';
    return (await this.db.run(sql, [tenantId, learnerId])).changes;
  }

  deleteExpired(before: string, limit?: number): Promise<number> {
    return deleteExpired(this.db, 'portal_sessions', before, limit);
  }
}

import {
  DomainError,
  type DashboardSessionRepository,
  type DashboardSessionSnapshot,
  type StaffCredentialRepository,
  type StaffCredentialSnapshot,
} from '@fundi/domain';
import { duplicateStaffEmail } from '@fundi/fakes';
import type { SqlDb } from '../db/sql-db.js';
import { mapUnique } from '../repos/conflicts.js';

type Row = Record<string, string | null>;

const credentialOf = (r: Row): StaffCredentialSnapshot => ({
  id: r.id!,
  tenantId: r.tenant_id!,
  email: r.email!,
  name: r.name!,
  role: r.role as StaffCredentialSnapshot['role'],
  status: r.status as StaffCredentialSnapshot['status'],
  passwordHash: r.password_hash ?? null,
  setPasswordTokenHash: r.set_password_token_hash ?? null,
  setPasswordExpiresAt: r.set_password_expires_at ?? null,
  createdAt: r.created_at!,
  updatedAt: r.updated_at!,
});

export class SqlStaffCredentialRepository implements StaffCredentialRepository {
  constructor(private readonly db: SqlDb) {}

  async insert(c: StaffCredentialSnapshot): Promise<void> {
    await mapUnique(this.db.dialect, [{ column: 'email', error: () => duplicateStaffEmail(c.email) }], () =>
      this.db.run(
        'INSERT INTO staff_credentials (id, tenant_id, email, name, role, status, password_hash, set_password_token_hash, set_password_expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          c.id,
          c.tenantId,
          c.email,
          c.name,
          c.role,
          c.status,
          c.passwordHash,
          c.setPasswordTokenHash,
          c.setPasswordExpiresAt,
          c.createdAt,
          c.updatedAt,
        ],
      ),
    );
  }

  async update(c: StaffCredentialSnapshot): Promise<void> {
    const { changes } = await this.db.run(
      'UPDATE staff_credentials SET name = ?, role = ?, status = ?, password_hash = ?, set_password_token_hash = ?, set_password_expires_at = ?, updated_at = ? WHERE id = ? AND tenant_id = ?',
      [
        c.name,
        c.role,
        c.status,
        c.passwordHash,
        c.setPasswordTokenHash,
        c.setPasswordExpiresAt,
        c.updatedAt,
        c.id,
        c.tenantId,
      ],
    );
    if (changes === 0) throw DomainError.notFound('user', c.id);
  }

  async findByEmail(tenantId: string, email: string): Promise<StaffCredentialSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM staff_credentials WHERE tenant_id = ? AND email = ?', [
      tenantId,
      email.toLowerCase(),
    ]);
    return r ? credentialOf(r) : null;
  }

  async findById(tenantId: string, id: string): Promise<StaffCredentialSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM staff_credentials WHERE tenant_id = ? AND id = ?', [
      tenantId,
      id,
    ]);
    return r ? credentialOf(r) : null;
  }

  async findBySetPasswordToken(tokenHash: string): Promise<StaffCredentialSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM staff_credentials WHERE set_password_token_hash = ?', [
      tokenHash,
    ]);
    return r ? credentialOf(r) : null;
  }

  async listByTenant(tenantId: string): Promise<StaffCredentialSnapshot[]> {
    const rows = await this.db.all<Row>('SELECT * FROM staff_credentials WHERE tenant_id = ? ORDER BY email', [
      tenantId,
    ]);
    return rows.map(credentialOf);
  }
}

const sessionOf = (r: Row): DashboardSessionSnapshot => ({
  tokenHash: r.token_hash!,
  tenantId: r.tenant_id!,
  userId: r.user_id!,
  csrfToken: r.csrf_token!,
  createdAt: r.created_at!,
  expiresAt: r.expires_at!,
});

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

  async deleteExpired(before: string): Promise<number> {
    const { changes } = await this.db.run('DELETE FROM dashboard_sessions WHERE expires_at < ?', [before]);
    return changes;
  }
}

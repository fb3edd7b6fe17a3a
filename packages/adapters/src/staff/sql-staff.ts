import { DomainError } from '@fundi/domain';
import type { StaffCredentialRepository, StaffCredentialSnapshot } from '@fundi/domain/staff';
import { duplicateStaffEmail } from '@fundi/memory/staff';
import type { SqlDb } from '../db/sql-db.js';
import { chunks, marks } from '../db/sql-helpers.js';
import { mapUnique } from '../db/conflicts.js';

type Row = Record<string, string | null>;

const credentialOf = (r: Row): StaffCredentialSnapshot => ({
  id: r.id!,
  tenantId: r.tenant_id!,
  email: r.email!,
  name: r.name!,
  role: r.role as StaffCredentialSnapshot['role'],
  status: r.status as StaffCredentialSnapshot['status'],
  mobile: r.mobile ?? null,
  passwordHash: r.password_hash ?? null,
  setPasswordTokenHash: r.set_password_token_hash ?? null,
  setPasswordExpiresAt: r.set_password_expires_at ?? null,
  createdAt: r.created_at!,
  updatedAt: r.updated_at!,
});

/** Each column of `staff_credentials` with how it is written from the snapshot. */
const STAFF_COLUMNS = {
  id: (c: StaffCredentialSnapshot) => c.id,
  tenant_id: (c: StaffCredentialSnapshot) => c.tenantId,
  email: (c: StaffCredentialSnapshot) => c.email,
  name: (c: StaffCredentialSnapshot) => c.name,
  role: (c: StaffCredentialSnapshot) => c.role,
  status: (c: StaffCredentialSnapshot) => c.status,
  mobile: (c: StaffCredentialSnapshot) => c.mobile,
  password_hash: (c: StaffCredentialSnapshot) => c.passwordHash,
  set_password_token_hash: (c: StaffCredentialSnapshot) => c.setPasswordTokenHash,
  set_password_expires_at: (c: StaffCredentialSnapshot) => c.setPasswordExpiresAt,
  created_at: (c: StaffCredentialSnapshot) => c.createdAt,
  updated_at: (c: StaffCredentialSnapshot) => c.updatedAt,
} as const;
/** Everything but the identity and the creation time. */
const UPDATABLE = (Object.keys(STAFF_COLUMNS) as (keyof typeof STAFF_COLUMNS)[]).filter(
  (k) => !['id', 'tenant_id', 'created_at'].includes(k),
);

export class SqlStaffCredentialRepository implements StaffCredentialRepository {
  constructor(private readonly db: SqlDb) {}

  async insert(c: StaffCredentialSnapshot): Promise<void> {
    const cols = Object.keys(STAFF_COLUMNS);
    await this.unique(c, () =>
      this.db.run(
        `INSERT INTO staff_credentials (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
        Object.values(STAFF_COLUMNS).map((f) => f(c)),
      ),
    );
  }

  async update(c: StaffCredentialSnapshot): Promise<void> {
    const { changes } = await this.unique(c, () =>
      this.db.run(
        `UPDATE staff_credentials SET ${UPDATABLE.map((k) => `${k} = ?`).join(', ')} WHERE id = ? AND tenant_id = ?`,
        [...UPDATABLE.map((k) => STAFF_COLUMNS[k](c)), c.id, c.tenantId],
      ),
    );
    if (changes === 0) throw DomainError.notFound('user', c.id);
  }

  async storeSetPasswordToken(
    tenantId: string,
    id: string,
    t: { hash: string; expiresAt: string; at: string; onlyWithoutPassword: boolean },
  ): Promise<boolean> {
    const { changes } = await this.db.run(
      `UPDATE staff_credentials SET set_password_token_hash = ?, set_password_expires_at = ?, updated_at = ?
       WHERE tenant_id = ? AND id = ? AND status = 'active'${t.onlyWithoutPassword ? ' AND password_hash IS NULL' : ''}`,
      [t.hash, t.expiresAt, t.at, tenantId, id],
    );
    return changes > 0;
  }

  /** A second user with the same email in the tenant is a conflict. */
  private unique<T>(c: StaffCredentialSnapshot, write: () => Promise<T>): Promise<T> {
    return mapUnique(this.db.dialect, [{ column: 'email', error: () => duplicateStaffEmail(c.email) }], write);
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

  async findByIds(tenantId: string, ids: readonly string[]): Promise<StaffCredentialSnapshot[]> {
    const out: StaffCredentialSnapshot[] = [];
    // By id alone, so the primary key is used; the tenant is checked on the rows.
    for (const part of chunks([...new Set(ids)], 500))
      for (const r of await this.db.all<Row>(
        `SELECT * FROM staff_credentials WHERE id IN (${marks(part.length)})`,
        part,
      ))
        if (r.tenant_id === tenantId) out.push(credentialOf(r));
    return out;
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

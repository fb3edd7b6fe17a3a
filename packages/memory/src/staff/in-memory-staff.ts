import { DomainError } from '@fundi/domain';
import type {
  DashboardSessionRepository,
  DashboardSessionSnapshot,
  StaffCredentialRepository,
  StaffCredentialSnapshot,
  StaffRepos,
} from '@fundi/domain/staff';
import type { MemoryPart, MemoryStore } from '../common/memory-store.js';

const clone = <T>(x: T): T => structuredClone(x);

export interface StaffTables {
  staffCredentials: Map<string, StaffCredentialSnapshot>;
  dashboardSessions: Map<string, DashboardSessionSnapshot>;
}

export const duplicateStaffEmail = (email: string) =>
  DomainError.conflict('duplicate_email', `A staff user with email ${email} already exists`, [
    { field: 'email', message: 'is taken' },
  ]);

export class InMemoryStaffCredentialRepository implements StaffCredentialRepository {
  constructor(private readonly store: MemoryStore<StaffTables>) {}
  private get rows() {
    return [...this.store.tables.staffCredentials.values()];
  }
  async insert(c: StaffCredentialSnapshot) {
    if (this.rows.some((x) => x.tenantId === c.tenantId && x.email === c.email)) throw duplicateStaffEmail(c.email);
    this.store.tables.staffCredentials.set(c.id, clone(c));
  }
  async update(c: StaffCredentialSnapshot) {
    if (!this.store.tables.staffCredentials.has(c.id)) throw DomainError.notFound('user', c.id);
    if (this.rows.some((x) => x.id !== c.id && x.tenantId === c.tenantId && x.email === c.email))
      throw duplicateStaffEmail(c.email);
    this.store.tables.staffCredentials.set(c.id, clone(c));
  }
  async storeSetPasswordToken(
    tenantId: string,
    id: string,
    t: { hash: string; expiresAt: string; at: string; onlyWithoutPassword: boolean },
  ) {
    const c = this.store.tables.staffCredentials.get(id);
    if (!c || c.tenantId !== tenantId || c.status !== 'active' || (t.onlyWithoutPassword && c.passwordHash))
      return false;
    Object.assign(c, { setPasswordTokenHash: t.hash, setPasswordExpiresAt: t.expiresAt, updatedAt: t.at });
    return true;
  }
  async findByEmail(tenantId: string, email: string) {
    const e = email.toLowerCase();
    return clone(this.rows.find((x) => x.tenantId === tenantId && x.email === e) ?? null);
  }
  async findById(tenantId: string, id: string) {
    const c = this.store.tables.staffCredentials.get(id);
    return c && c.tenantId === tenantId ? clone(c) : null;
  }
  async findByIds(tenantId: string, ids: readonly string[]) {
    const out: StaffCredentialSnapshot[] = [];
    for (const id of new Set(ids)) {
      const c = this.store.tables.staffCredentials.get(id);
      if (c && c.tenantId === tenantId) out.push(clone(c));
    }
    return out;
  }
  async findBySetPasswordToken(tokenHash: string) {
    return clone(this.rows.find((x) => x.setPasswordTokenHash === tokenHash) ?? null);
  }
  async listByTenant(tenantId: string) {
    return clone(this.rows.filter((x) => x.tenantId === tenantId).sort((a, b) => a.email.localeCompare(b.email)));
  }
}

export class InMemoryDashboardSessionRepository implements DashboardSessionRepository {
  constructor(private readonly store: MemoryStore<StaffTables>) {}
  async insert(s: DashboardSessionSnapshot) {
    this.store.tables.dashboardSessions.set(s.tokenHash, clone(s));
  }
  async find(tokenHash: string) {
    return clone(this.store.tables.dashboardSessions.get(tokenHash) ?? null);
  }
  async delete(tokenHash: string) {
    this.store.tables.dashboardSessions.delete(tokenHash);
  }
  async deleteForUser(tenantId: string, userId: string) {
    let n = 0;
    for (const [k, s] of this.store.tables.dashboardSessions)
      if (s.tenantId === tenantId && s.userId === userId) {
        this.store.tables.dashboardSessions.delete(k);
        n++;
      }
    return n;
  }
  async deleteExpired(before: string, limit = Number.POSITIVE_INFINITY) {
    const rows = this.store.tables.dashboardSessions;
    const gone = [...rows.entries()]
      .filter(([, s]) => s.expiresAt < before)
      .sort(([, a], [, b]) => (a.expiresAt < b.expiresAt ? -1 : 1))
      .slice(0, limit);
    for (const [k] of gone) rows.delete(k);
    return gone.length;
  }
}

export const staffMemory: MemoryPart<StaffRepos, StaffTables> = {
  tables: () => ({ staffCredentials: new Map(), dashboardSessions: new Map() }),
  repositories: (store) => ({
    staffCredentials: new InMemoryStaffCredentialRepository(store),
    dashboardSessions: new InMemoryDashboardSessionRepository(store),
  }),
};

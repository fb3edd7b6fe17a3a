import type {
  PortalRepos,
  PortalSessionRepository,
  PortalSessionSnapshot,
  PortalSignInRepository,
  PortalSignInSnapshot,
} from '@fundi/domain/portal';
import type { MemoryPart, MemoryStore } from '../common/memory-store.js';

const clone = <T>(x: T): T => structuredClone(x);

export interface PortalTables {
  portalSignIns: Map<string, PortalSignInSnapshot>;
  portalSessions: Map<string, PortalSessionSnapshot>;
}

type Row = { tenantId: string; learnerId: string; expiresAt: string };

function deleteWhere<T extends Row>(rows: Map<string, T>, keep: (r: T) => boolean): number {
  let n = 0;
  for (const [k, r] of rows)
    if (!keep(r)) {
      rows.delete(k);
      n++;
    }
  return n;
}

function deleteExpired<T extends Row>(rows: Map<string, T>, before: string, limit: number): number {
  const gone = [...rows.entries()]
    .filter(([, r]) => r.expiresAt < before)
    .sort(([, a], [, b]) => (a.expiresAt < b.expiresAt ? -1 : 1))
    .slice(0, limit);
  for (const [k] of gone) rows.delete(k);
  return gone.length;
}

export class InMemoryPortalSignInRepository implements PortalSignInRepository {
  constructor(private readonly store: MemoryStore<PortalTables>) {}
  async insert(s: PortalSignInSnapshot) {
    this.store.tables.portalSignIns.set(s.tokenHash, clone(s));
  }
  async consume(tokenHash: string, at: string) {
    const s = this.store.tables.portalSignIns.get(tokenHash);
    if (!s || s.usedAt !== null || s.expiresAt <= at) return null;
    s.usedAt = at;
    return clone(s);
  }
  async deleteForLearner(tenantId: string, learnerId: string) {
    return deleteWhere(
      this.store.tables.portalSignIns,
      (r) => r.tenantId !== tenantId || r.learnerId !== learnerId || r.usedAt !== null,
    );
  }
  async deleteExpired(before: string, limit = Number.POSITIVE_INFINITY) {
    return deleteExpired(this.store.tables.portalSignIns, before, limit);
  }
}

export class InMemoryPortalSessionRepository implements PortalSessionRepository {
  constructor(private readonly store: MemoryStore<PortalTables>) {}
  async insert(s: PortalSessionSnapshot) {
    this.store.tables.portalSessions.set(s.tokenHash, clone(s));
  }
  async find(tokenHash: string) {
    return clone(this.store.tables.portalSessions.get(tokenHash) ?? null);
  }
  async delete(tokenHash: string) {
    this.store.tables.portalSessions.delete(tokenHash);
  }
  async deleteForLearner(tenantId: string, learnerId: string) {
    return deleteWhere(this.store.tables.portalSessions, (r) => r.tenantId !== tenantId || r.learnerId !== learnerId);
  }
  async deleteExpired(before: string, limit = Number.POSITIVE_INFINITY) {
    return deleteExpired(this.store.tables.portalSessions, before, limit);
  }
}

export const portalMemory: MemoryPart<PortalRepos, PortalTables> = {
  tables: () => ({ portalSignIns: new Map(), portalSessions: new Map() }),
  repositories: (store) => ({
    portalSignIns: new InMemoryPortalSignInRepository(store),
    portalSessions: new InMemoryPortalSessionRepository(store),
  }),
};

import type { PageRequest } from '@fundi/domain';
import type { StatementRepos, StatementRepository, StatementSnapshot } from '@fundi/domain/statements';
import type { MemoryPart, MemoryStore } from '../common/memory-store.js';

export type StatementTables = { statements: Map<string, StatementSnapshot> };

/** Statements of Results in memory (the same rules as `SqlStatementRepository`). */
export class InMemoryStatements implements StatementRepository {
  constructor(private readonly store: MemoryStore<StatementTables>) {}
  private get rows() {
    return this.store.tables.statements;
  }
  async insert(s: StatementSnapshot) {
    this.rows.set(s.id, structuredClone(s));
  }
  async findById(tenantId: string, id: string) {
    const s = this.rows.get(id);
    return s && s.tenantId === tenantId ? structuredClone(s) : null;
  }
  async findByCode(code: string) {
    const s = [...this.rows.values()].find((x) => x.verificationCode === code);
    return s ? structuredClone(s) : null;
  }
  async listForLearner(tenantId: string, learnerId: string, page: PageRequest) {
    const all = [...this.rows.values()]
      .filter((s) => s.tenantId === tenantId && s.learnerId === learnerId)
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    const from =
      page.kind === 'cursor' ? (page.after ? all.filter((s) => s.id < page.after!) : all) : all.slice(page.offset);
    return { items: structuredClone(from.slice(0, page.limit)), total: all.length, hasMore: from.length > page.limit };
  }
  async revoke(tenantId: string, id: string, r: { at: string; by: string; reason: string }) {
    const s = this.rows.get(id);
    if (!s || s.tenantId !== tenantId || s.revokedAt) return false;
    Object.assign(s, { revokedAt: r.at, revokedBy: r.by, revokeReason: r.reason });
    return true;
  }
  async revokeForErasedLearner(tenantId: string, learnerId: string, at: string) {
    const ids: string[] = [];
    for (const s of [...this.rows.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
      if (s.tenantId !== tenantId || s.learnerId !== learnerId) continue;
      if (!s.revokedAt) {
        ids.push(s.id);
        Object.assign(s, { revokedAt: at, revokedBy: 'system', revokeReason: 'learner_erased' });
      }
      s.holder = null;
    }
    return ids;
  }
}

export const statementMemory: MemoryPart<StatementRepos, StatementTables> = {
  tables: () => ({ statements: new Map() }),
  repositories: (store) => ({ statements: new InMemoryStatements(store) }),
};

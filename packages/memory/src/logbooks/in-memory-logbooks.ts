import { DomainError, pageOf, type PageRequest } from '@fundi/domain';
import type { LogbookEntryRepository, LogbookEntrySnapshot, LogbookFilter, LogbookRepos } from '@fundi/domain/logbooks';
import type { MemoryPart, MemoryStore } from '../common/memory-store.js';

const clone = <T>(x: T): T => structuredClone(x);

export interface LogbookTables {
  logbookEntries: Map<string, LogbookEntrySnapshot>;
}

/** The personal text an erasure removes from a learner's entries; hours, dates and statuses stay. */
export function erasedEntry(e: LogbookEntrySnapshot): LogbookEntrySnapshot {
  return {
    ...e,
    activity: '',
    workplace: '',
    supervisor: { name: '', email: null, mobile: null },
    evidenceIds: [],
    signOff: e.signOff ? { ...e.signOff, by: '', ip: '', comment: null } : null,
  };
}

export class InMemoryLogbookEntryRepository implements LogbookEntryRepository {
  constructor(private readonly store: MemoryStore<LogbookTables>) {}
  private mine(tenantId: string) {
    return [...this.store.tables.logbookEntries.values()]
      .filter((e) => e.tenantId === tenantId)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }
  async insert(e: LogbookEntrySnapshot) {
    this.store.tables.logbookEntries.set(e.id, clone(e));
  }
  async update(e: LogbookEntrySnapshot) {
    const cur = this.store.tables.logbookEntries.get(e.id);
    if (!cur || cur.tenantId !== e.tenantId) throw DomainError.notFound('logbook entry', e.id);
    this.store.tables.logbookEntries.set(e.id, clone(e));
  }
  async findById(tenantId: string, id: string) {
    const e = this.store.tables.logbookEntries.get(id);
    return e && e.tenantId === tenantId ? clone(e) : null;
  }
  async findByIds(tenantId: string, ids: readonly string[]) {
    return clone(this.mine(tenantId).filter((e) => ids.includes(e.id)));
  }
  async list(tenantId: string, f: LogbookFilter, page: PageRequest) {
    const rows = this.mine(tenantId).filter(
      (e) =>
        (!f.learnerId || e.learnerId === f.learnerId) &&
        (!f.moduleCode || e.moduleCode === f.moduleCode) &&
        (!f.status || e.status === f.status),
    );
    return pageOf(clone(rows), page);
  }
  async listBySubmission(tenantId: string, submissionId: string) {
    return clone(this.mine(tenantId).filter((e) => e.submissionId === submissionId));
  }
  async listForLearner(tenantId: string, learnerId: string) {
    return clone(this.mine(tenantId).filter((e) => e.learnerId === learnerId));
  }
  async delete(tenantId: string, id: string) {
    const e = this.store.tables.logbookEntries.get(id);
    if (e && e.tenantId === tenantId) this.store.tables.logbookEntries.delete(id);
  }
  async eraseLearner(tenantId: string, learnerId: string) {
    let n = 0;
    for (const e of this.mine(tenantId))
      if (e.learnerId === learnerId) {
        this.store.tables.logbookEntries.set(e.id, erasedEntry(e));
        n++;
      }
    return n;
  }
}

export const logbookMemory: MemoryPart<LogbookRepos, LogbookTables> = {
  tables: () => ({ logbookEntries: new Map() }),
  repositories: (store) => ({ logbookEntries: new InMemoryLogbookEntryRepository(store) }),
};

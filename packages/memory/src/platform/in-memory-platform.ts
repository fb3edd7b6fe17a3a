import type { DomainEvent, Outbox, PlatformRepos } from '@fundi/domain';
import {
  AUDIT_GENESIS,
  chainEntry,
  entryOfRow,
  type AuditEntry,
  type AuditLog,
  type ChainRow,
  type PersonalValues,
} from '@fundi/domain/audit';
import { InMemoryJobQueue, type JobTables } from '../jobs/index.js';
import type { MemoryPart, MemoryStore } from '../common/memory-store.js';

const clone = <T>(x: T): T => structuredClone(x);

/** The platform's tables in memory: the audit log, the outbox, and the jobs every capability queues. */
export type PlatformTables = JobTables & {
  /** Audit entries as stored, each tenant's chained (`audit-chain.ts`). */
  audit: ChainRow[];
  /** Personal values of audit entries, by entry id, until their learner is erased. */
  auditPersonal: Map<string, PersonalValues>;
  /** Each tenant's last audit seq and hash. */
  auditHeads: Map<string, { seq: number; hash: string }>;
  outbox: DomainEvent[];
};

export class InMemoryAuditLog implements AuditLog {
  constructor(private readonly store: MemoryStore<PlatformTables>) {}
  async record(e: AuditEntry, events: readonly DomainEvent[] = []) {
    const t = this.store.tables;
    for (const ev of events) t.outbox.push(clone(ev));
    const { row, personal } = chainEntry(e, t.auditHeads.get(e.tenantId) ?? { seq: 0, hash: AUDIT_GENESIS });
    t.audit.push(row);
    if (personal) t.auditPersonal.set(row.id, personal);
    t.auditHeads.set(e.tenantId, { seq: row.seq, hash: row.hash });
  }
  async list(tenantId: string, f: { resourceId?: string; limit: number }) {
    return this.store.tables.audit
      .filter((e) => e.tenantId === tenantId && (!f.resourceId || e.resourceId === f.resourceId))
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .slice(0, f.limit)
      .map(entryOfRow);
  }
  async forgetLearner(tenantId: string, learnerId: string) {
    let n = 0;
    for (const [id, p] of this.store.tables.auditPersonal)
      if (p.tenantId === tenantId && p.learnerId === learnerId) {
        this.store.tables.auditPersonal.delete(id);
        n++;
      }
    return n;
  }
}

export class InMemoryOutbox implements Outbox {
  constructor(private readonly store: MemoryStore<PlatformTables>) {}
  async add(e: DomainEvent) {
    this.store.tables.outbox.push(clone(e));
  }
  async addMany(events: readonly DomainEvent[]) {
    for (const e of events) this.store.tables.outbox.push(clone(e));
  }
  async list(tenantId: string, f: { since?: string; types?: readonly string[]; limit: number }) {
    return clone(
      this.store.tables.outbox
        .filter(
          (e) =>
            e.tenantId === tenantId &&
            (!f.since || e.occurredAt >= f.since) &&
            (!f.types?.length || f.types.includes(e.type)),
        )
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .slice(0, f.limit),
    );
  }
  async redactSubject(tenantId: string, subjectId: string, data: Record<string, unknown>) {
    const about = this.store.tables.outbox
      .filter((e) => e.tenantId === tenantId && e.subjectId === subjectId)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    for (const e of about) e.data = clone(data);
    return about.map((e) => e.id);
  }
}

export const platformMemory: MemoryPart<PlatformRepos, PlatformTables> = {
  tables: () => ({
    audit: [],
    auditPersonal: new Map(),
    auditHeads: new Map(),
    outbox: [],
    jobs: new Map(),
    workerLease: null,
  }),
  repositories: (store) => ({
    audit: new InMemoryAuditLog(store),
    outbox: new InMemoryOutbox(store),
    jobs: new InMemoryJobQueue(store),
  }),
};

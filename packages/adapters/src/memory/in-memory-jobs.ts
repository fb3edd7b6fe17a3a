import type { JobQueue, JobSnapshot, WorkerLease } from '@fundi/domain';
import type { MemoryStore } from './memory-store.js';

const clone = <T>(x: T): T => structuredClone(x);

export class InMemoryJobQueue implements JobQueue {
  constructor(private readonly store: MemoryStore) {}
  private get rows() {
    return this.store.tables.jobs;
  }
  async enqueue(j: Pick<JobSnapshot, 'id' | 'kind' | 'payload' | 'dueAt' | 'createdAt'>) {
    this.rows.set(j.id, { ...clone(j), leaseOwner: null, leaseUntil: null, attempts: 0, lastError: null, doneAt: null });
  }
  async claimDue(owner: string, kinds: readonly string[], now: string, leaseUntil: string, limit: number) {
    const due = [...this.rows.values()]
      .filter((j) => !j.doneAt && j.dueAt <= now && (!j.leaseUntil || j.leaseUntil < now) && kinds.includes(j.kind))
      .sort((a, b) => (a.dueAt < b.dueAt ? -1 : 1)).slice(0, limit);
    for (const j of due) Object.assign(j, { leaseOwner: owner, leaseUntil, attempts: j.attempts + 1 });
    return clone(due);
  }
  async finish(id: string, owner: string, at: string, error: string | null) {
    const j = this.rows.get(id);
    if (j?.leaseOwner === owner) Object.assign(j, { doneAt: at, lastError: error, leaseOwner: null, leaseUntil: null });
  }
  async retry(id: string, owner: string, dueAt: string, error: string) {
    const j = this.rows.get(id);
    if (j?.leaseOwner === owner) Object.assign(j, { dueAt, lastError: error, leaseOwner: null, leaseUntil: null });
  }
  async release(owner: string) {
    const mine = [...this.rows.values()].filter((j) => j.leaseOwner === owner && !j.doneAt);
    for (const j of mine) Object.assign(j, { leaseOwner: null, leaseUntil: null });
    return mine.length;
  }
  async findById(id: string) {
    return clone(this.rows.get(id) ?? null);
  }
}

export class InMemoryWorkerLease implements WorkerLease {
  constructor(private readonly store: MemoryStore) {}
  async acquire(owner: string, now: string, until: string) {
    const cur = this.store.tables.workerLease;
    if (cur && cur.owner !== owner && cur.leaseUntil >= now) return false;
    this.store.tables.workerLease = { owner, leaseUntil: until };
    return true;
  }
  async release(owner: string) {
    if (this.store.tables.workerLease?.owner === owner) this.store.tables.workerLease = null;
  }
}

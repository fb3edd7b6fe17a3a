import {
  newJobSnapshot,
  type JobLane,
  type JobProgress,
  type JobQueue,
  type JobSnapshot,
  type NewJob,
  type WorkerLease,
} from '@fundi/domain';
import type { MemoryStore } from './memory-store.js';

const clone = <T>(x: T): T => structuredClone(x);

type JobTables = { jobs: Map<string, JobSnapshot>; workerLease: { owner: string; leaseUntil: string } | null };

export class InMemoryJobQueue implements JobQueue {
  constructor(private readonly store: MemoryStore<JobTables>) {}
  private get rows() {
    return this.store.tables.jobs;
  }
  private held(id: string, owner: string): JobSnapshot | null {
    const j = this.rows.get(id);
    return j && j.leaseOwner === owner && !j.doneAt ? j : null;
  }
  async enqueue(j: NewJob) {
    const existing = j.idempotencyKey
      ? [...this.rows.values()].find((x) => x.idempotencyKey === j.idempotencyKey)
      : undefined;
    if (existing) return clone(existing);
    const row = newJobSnapshot(clone(j));
    this.rows.set(j.id, row);
    return clone(row);
  }
  async claimDue(
    owner: string,
    lane: JobLane,
    kinds: readonly string[],
    now: string,
    leaseUntil: string,
    limit: number,
  ) {
    const due = [...this.rows.values()]
      .filter(
        (j) =>
          j.lane === lane &&
          !j.doneAt &&
          j.dueAt <= now &&
          (!j.leaseUntil || j.leaseUntil < now) &&
          kinds.includes(j.kind),
      )
      .sort((a, b) => (a.dueAt < b.dueAt ? -1 : 1))
      .slice(0, Math.max(0, limit));
    for (const j of due) Object.assign(j, { leaseOwner: owner, leaseUntil, attempts: j.attempts + 1 });
    return clone(due);
  }
  async heartbeat(id: string, owner: string, leaseUntil: string) {
    const j = this.held(id, owner);
    if (j) j.leaseUntil = leaseUntil;
    return j !== null;
  }
  async reportProgress(id: string, owner: string, progress: JobProgress) {
    const j = this.held(id, owner);
    if (j) j.progress = { ...progress };
    return j !== null;
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
  constructor(private readonly store: MemoryStore<JobTables>) {}
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

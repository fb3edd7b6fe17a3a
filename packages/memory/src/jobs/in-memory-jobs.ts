import {
  jobState,
  newJobSnapshot,
  type JobClaim,
  type JobFilter,
  type JobOperatorResult,
  type JobProgress,
  type JobQueue,
  type JobSnapshot,
  type NewJob,
  type WorkerLease,
} from '@fundi/domain';
import type { MemoryStore } from '../common/memory-store.js';

const clone = <T>(x: T): T => structuredClone(x);

/** The jobs table and the worker lease (SQLite's one-worker rule) in memory. */
export type JobTables = { jobs: Map<string, JobSnapshot>; workerLease: { owner: string; leaseUntil: string } | null };

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
  async enqueueMany(jobs: readonly NewJob[]) {
    for (const j of jobs) await this.enqueue(j);
  }
  async claimDue(c: JobClaim) {
    const { now } = c;
    const interactive = [...this.rows.values()]
      .filter((j) => j.priority === 'interactive' && !j.doneAt && j.leaseUntil !== null && j.leaseUntil >= now)
      .map((j) => j.claimedAt ?? '')
      .sort();
    const holdStart = new Date(Date.parse(now) - c.backgroundWaitMs).toISOString();
    const held = interactive.length > 0 && interactive[0]! > holdStart;
    const due = [...this.rows.values()]
      .filter(
        (j) =>
          j.lane === c.lane &&
          !j.doneAt &&
          j.dueAt <= now &&
          (!j.leaseUntil || j.leaseUntil < now) &&
          c.kinds.includes(j.kind) &&
          !(held && j.priority === 'background'),
      )
      .sort((a, b) => (a.dueAt < b.dueAt ? -1 : 1))
      .slice(0, Math.max(0, c.limit));
    for (const j of due)
      Object.assign(j, { leaseOwner: c.owner, leaseUntil: c.leaseUntil, claimedAt: now, attempts: j.attempts + 1 });
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
  async list(f: JobFilter) {
    return clone(
      [...this.rows.values()]
        .filter(
          (j) =>
            (!f.state || jobState(j, f.now) === f.state) &&
            (f.kind === undefined || j.kind === f.kind) &&
            (f.tenantId === undefined || j.tenantId === f.tenantId),
        )
        .sort((a, b) => (a.id < b.id ? 1 : -1))
        .slice(0, f.limit),
    );
  }
  async retryNow(id: string, now: string): Promise<JobOperatorResult> {
    const j = this.rows.get(id);
    if (!j || jobState(j, now) !== 'failed') return this.unchanged(id, now);
    Object.assign(j, {
      dueAt: now,
      attempts: 0,
      lastError: null,
      doneAt: null,
      leaseOwner: null,
      leaseUntil: null,
      progress: null,
    });
    return { changed: true, job: clone(j) };
  }
  async cancel(id: string, now: string): Promise<JobOperatorResult> {
    const j = this.rows.get(id);
    const state = j ? jobState(j, now) : null;
    if (!j || (state !== 'queued' && state !== 'failed')) return this.unchanged(id, now);
    Object.assign(j, { cancelledAt: now, doneAt: j.doneAt ?? now, leaseOwner: null, leaseUntil: null });
    return { changed: true, job: clone(j) };
  }
  private unchanged(id: string, now: string): JobOperatorResult {
    const j = this.rows.get(id);
    return { changed: false, job: clone(j ?? null), state: j ? jobState(j, now) : null };
  }
  async pruneFinished(before: string, limit: number) {
    const old = [...this.rows.values()]
      .filter((j) => j.doneAt !== null && j.doneAt < before)
      .sort((a, b) => (a.doneAt! < b.doneAt! ? -1 : 1))
      .slice(0, limit);
    for (const j of old) this.rows.delete(j.id);
    return old.length;
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

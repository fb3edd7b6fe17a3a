import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import {
  Enrolment,
  type AtRiskQuery,
  type EnrolmentAtRisk,
  type EnrolmentFilter,
  type EnrolmentRepository,
  type EnrolmentSnapshot,
  type EnrolmentStatus,
  type EnrolmentSummary,
  type StatusChange,
} from '@fundi/domain/training';
import type { MemoryStore } from '../common/memory-store.js';
import { pageOf } from '../common/paging.js';
import { type TrainingTables, clone, byId } from './training-tables.js';

export class InMemoryEnrolmentRepository implements EnrolmentRepository {
  constructor(private readonly store: MemoryStore<TrainingTables>) {}
  private of(tenantId: string): EnrolmentSnapshot[] {
    return [...this.store.tables.enrolments.values()].filter((e) => e.tenantId === tenantId);
  }
  async insert(e: EnrolmentSnapshot) {
    if (
      this.of(e.tenantId).some(
        (o) => o.learnerId === e.learnerId && o.programmeId === e.programmeId && Enrolment.isOpen(o),
      )
    ) {
      throw DomainError.conflict(
        'open_enrolment_exists',
        'The learner already has an open enrolment in this programme',
        [{ field: 'programmeCode', message: 'the learner already has an open enrolment in this programme' }],
      );
    }
    this.store.tables.enrolments.set(e.id, clone(e));
  }
  async updateStatus(e: EnrolmentSnapshot, expectedStatus: EnrolmentStatus) {
    const cur = this.store.tables.enrolments.get(e.id);
    if (!cur || cur.tenantId !== e.tenantId) throw DomainError.notFound('enrolment', e.id);
    if (cur.status !== expectedStatus)
      throw DomainError.conflict('concurrent_status_change', 'The enrolment status changed meanwhile; read it again');
    Object.assign(cur, { status: e.status, achievementDate: e.achievementDate, updatedAt: e.updatedAt });
  }
  async findById(tenantId: string, id: string) {
    return clone(this.of(tenantId).find((e) => e.id === id) ?? null);
  }
  async list(tenantId: string, f: EnrolmentFilter, page: PageRequest): Promise<Page<EnrolmentSnapshot>> {
    return clone(pageOf(this.matching(tenantId, f), page));
  }
  async summaries(tenantId: string, f: EnrolmentFilter, learnerIds?: readonly string[]): Promise<EnrolmentSummary[]> {
    const only = learnerIds ? new Set(learnerIds) : null;
    return this.matching(tenantId, f)
      .filter((e) => !only || only.has(e.learnerId))
      .sort(byId)
      .map((e) => ({
        id: e.id,
        learnerId: e.learnerId,
        programmeCode: e.programmeCode,
        status: e.status,
        startDate: e.startDate,
      }));
  }
  async ofLearners(tenantId: string, f: EnrolmentFilter, learnerIds: readonly string[]) {
    const only = new Set(learnerIds);
    return clone(
      this.matching(tenantId, f)
        .filter((e) => only.has(e.learnerId))
        .sort(byId),
    );
  }
  private matching(tenantId: string, f: EnrolmentFilter): EnrolmentSnapshot[] {
    return this.of(tenantId).filter(
      (e) =>
        (!f.learnerId || e.learnerId === f.learnerId) &&
        (!f.programmeCode || e.programmeCode === f.programmeCode) &&
        (!f.status || e.status === f.status) &&
        (!f.startFrom || e.startDate >= f.startFrom) &&
        (!f.startTo || e.startDate <= f.startTo) &&
        (!f.updatedFrom || e.updatedAt >= f.updatedFrom) &&
        (!f.updatedTo || e.updatedAt <= f.updatedTo),
    );
  }
  async openForLearner(tenantId: string, learnerId: string) {
    const open = this.of(tenantId).filter((e) => e.learnerId === learnerId && Enrolment.isOpen(e));
    return clone(
      open.sort((a, b) => (a.startDate !== b.startDate ? (a.startDate < b.startDate ? 1 : -1) : -byId(a, b))),
    );
  }
  async openDueOn(date: string, afterId: string | null, limit: number) {
    const all = [...this.store.tables.enrolments.values()].filter(
      (e) => e.expectedEndDate === date && e.id > (afterId ?? '') && Enrolment.isOpen(e),
    );
    return clone(all.sort(byId).slice(0, limit));
  }
  async countForProgramme(tenantId: string, programmeId: string) {
    return this.of(tenantId).filter((e) => e.programmeId === programmeId).length;
  }
  async statusCounts(tenantId: string) {
    const counts = new Map<string, { programmeId: string; status: EnrolmentStatus; count: number }>();
    for (const e of this.of(tenantId)) {
      const key = `${e.programmeId}|${e.status}`;
      const c = counts.get(key) ?? { programmeId: e.programmeId, status: e.status, count: 0 };
      c.count++;
      counts.set(key, c);
    }
    return [...counts.values()];
  }
  async atRisk(tenantId: string, q: AtRiskQuery) {
    const active = new Set(q.active);
    const lastAssessed = new Map<string, string>();
    for (const a of this.store.tables.assessments.values())
      if (a.tenantId === tenantId && a.assessmentDate > (lastAssessed.get(a.enrolmentId) ?? ''))
        lastAssessed.set(a.enrolmentId, a.assessmentDate);
    const found: (EnrolmentAtRisk & { key: string })[] = [];
    for (const e of this.of(tenantId)) {
      if (!Enrolment.isOpen(e)) continue;
      const last = lastAssessed.get(e.id) ?? null;
      const overdue = e.expectedEndDate !== null && e.expectedEndDate < q.today;
      const idle = e.startDate <= q.since && (last === null || last < q.since) && !active.has(e.id);
      if (overdue || idle)
        found.push({
          enrolment: e,
          reason: overdue ? 'overdue' : 'idle',
          lastAssessed: last,
          key: `${overdue ? e.expectedEndDate : '9999'}|${e.startDate}|${e.id}`,
        });
    }
    found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return {
      enrolments: found.length,
      learners: new Set(found.map((f) => f.enrolment.learnerId)).size,
      items: clone(found.slice(0, q.limit).map(({ key: _k, ...f }) => f)),
    };
  }
  async dueBetween(tenantId: string, q: { from: string; to: string; limit: number }) {
    const due = this.of(tenantId)
      .filter(
        (e) =>
          Enrolment.isOpen(e) && e.expectedEndDate !== null && e.expectedEndDate >= q.from && e.expectedEndDate <= q.to,
      )
      .sort((a, b) =>
        a.expectedEndDate === b.expectedEndDate ? byId(a, b) : a.expectedEndDate! < b.expectedEndDate! ? -1 : 1,
      );
    return { total: due.length, items: clone(due.slice(0, q.limit)) };
  }
  async addStatusChange(c: StatusChange) {
    this.store.tables.enrolmentHistory.push(clone(c));
  }
  async history(tenantId: string, enrolmentId: string) {
    return clone(
      this.store.tables.enrolmentHistory
        .filter((c) => c.tenantId === tenantId && c.enrolmentId === enrolmentId)
        .sort(byId),
    );
  }
}

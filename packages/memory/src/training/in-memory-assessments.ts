import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import {
  Assessment,
  type AssessmentFilter,
  type AssessmentRepository,
  type AssessmentSnapshot,
  type ModerationSampleRepository,
  type ModerationSampleSnapshot,
  type ModerationSnapshot,
} from '@fundi/domain/training';
import type { MemoryStore } from '../common/memory-store.js';
import { pageOf } from '../common/paging.js';
import { type TrainingTables, clone, byId } from './training-tables.js';

export class InMemoryAssessmentRepository implements AssessmentRepository {
  constructor(private readonly store: MemoryStore<TrainingTables>) {}
  private of(tenantId: string): AssessmentSnapshot[] {
    return [...this.store.tables.assessments.values()]
      .filter((a) => a.tenantId === tenantId)
      .map((a) => ({ ...a, moderation: this.store.tables.moderations.get(a.id) ?? null }))
      .sort(byId);
  }
  async insert(a: AssessmentSnapshot) {
    const { moderation: _m, ...row } = a;
    this.store.tables.assessments.set(a.id, clone(row));
  }
  async findById(tenantId: string, id: string) {
    return clone(this.of(tenantId).find((a) => a.id === id) ?? null);
  }
  async findByIds(tenantId: string, ids: readonly string[]) {
    const wanted = new Set(ids);
    return clone(this.of(tenantId).filter((a) => wanted.has(a.id)));
  }
  async list(tenantId: string, f: AssessmentFilter, page: PageRequest): Promise<Page<AssessmentSnapshot>> {
    return clone(
      pageOf(
        this.of(tenantId).filter(
          (a) =>
            (!f.learnerId || a.learnerId === f.learnerId) &&
            (!f.enrolmentId || a.enrolmentId === f.enrolmentId) &&
            (!f.moduleCode || a.moduleCode === f.moduleCode) &&
            (!f.outcome || a.outcome === f.outcome) &&
            (!f.assessmentType || a.assessmentType === f.assessmentType) &&
            (!f.from || a.assessmentDate >= f.from) &&
            (!f.to || a.assessmentDate <= f.to) &&
            (!f.updatedFrom || Assessment.updatedAt(a) >= f.updatedFrom) &&
            (!f.updatedTo || Assessment.updatedAt(a) <= f.updatedTo),
        ),
        page,
      ),
    );
  }
  async summativeForEnrolments(tenantId: string, enrolmentIds: readonly string[]) {
    return clone(
      this.of(tenantId).filter((a) => a.assessmentType === 'summative' && enrolmentIds.includes(a.enrolmentId)),
    );
  }
  async ofEnrolments(tenantId: string, enrolmentIds: readonly string[]) {
    const only = new Set(enrolmentIds);
    return clone(this.of(tenantId).filter((a) => only.has(a.enrolmentId)));
  }
  async summativeForProgramme(tenantId: string, programmeId: string, r: { from: string | null; to: string | null }) {
    return clone(
      this.of(tenantId).filter(
        (a) =>
          a.assessmentType === 'summative' &&
          a.programmeId === programmeId &&
          (!r.from || a.assessmentDate >= r.from) &&
          (!r.to || a.assessmentDate <= r.to),
      ),
    );
  }
  async assessedModules(tenantId: string, programmeId: string) {
    return [
      ...new Set(
        this.of(tenantId)
          .filter((a) => a.programmeId === programmeId)
          .map((a) => a.moduleCode),
      ),
    ];
  }
  async addModeration(m: ModerationSnapshot) {
    if (this.store.tables.moderations.has(m.assessmentId))
      throw DomainError.conflict('already_moderated', 'This assessment has already been moderated');
    this.store.tables.moderations.set(m.assessmentId, clone(m));
  }
}

export class InMemoryModerationSampleRepository implements ModerationSampleRepository {
  constructor(private readonly store: MemoryStore<TrainingTables>) {}
  async insert(s: ModerationSampleSnapshot) {
    this.store.tables.moderationSamples.set(s.id, clone(s));
  }
  async findById(tenantId: string, id: string) {
    const s = this.store.tables.moderationSamples.get(id);
    return s?.tenantId === tenantId ? clone(s) : null;
  }
  async list(tenantId: string, f: { programmeId?: string }, page: PageRequest) {
    const mine = [...this.store.tables.moderationSamples.values()].filter(
      (s) => s.tenantId === tenantId && (!f.programmeId || s.programmeId === f.programmeId),
    );
    return clone(pageOf(mine, page));
  }
}

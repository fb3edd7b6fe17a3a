import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type {
  LearnerFilter,
  LearnerOrder,
  LearnerRepository,
  LearnerSnapshot,
  LearnerRepos,
} from '@fundi/domain/learners';
import type { EnrolmentSnapshot } from '@fundi/domain/training';
import type { MemoryPart, MemoryStore } from '../common/memory-store.js';
import { listLearners } from './in-memory-learner-listing.js';
import { takenValues } from './in-memory-taken-values.js';

export interface LearnerTables {
  learners: Map<string, LearnerSnapshot & { erasedAt?: string }>;
}

/** The training capability's enrolments, read for the enrolment filters and sorts (absent without training). */
type Reads = { enrolments?: Map<string, EnrolmentSnapshot> };

const clone = <T>(x: T): T => structuredClone(x);

export class InMemoryLearnerRepository implements LearnerRepository {
  constructor(private readonly store: MemoryStore<LearnerTables & Reads>) {}
  private get rows() {
    return this.store.tables.learners;
  }
  private live(tenantId: string): LearnerSnapshot[] {
    return [...this.rows.values()].filter((l) => l.tenantId === tenantId && !l.erasedAt);
  }
  private checkUnique(l: LearnerSnapshot): void {
    for (const o of this.live(l.tenantId)) {
      if (o.id === l.id) continue;
      if (l.idNumber !== null && o.idNumber === l.idNumber)
        throw DomainError.conflict('duplicate_id_number', 'A learner with this ID number already exists', [
          { field: 'idNumber', message: 'is already registered' },
        ]);
      if (l.alternateId !== null && o.alternateId === l.alternateId && o.alternateIdType === l.alternateIdType)
        throw DomainError.conflict('duplicate_alternate_id', 'A learner with this alternative ID already exists', [
          { field: 'alternateId', message: 'is already registered with this alternateIdType' },
        ]);
      if (l.email && o.email?.toLowerCase() === l.email.toLowerCase())
        throw DomainError.conflict('duplicate_email', 'A learner with this email already exists', [
          { field: 'email', message: 'is already registered' },
        ]);
    }
  }
  async insert(l: LearnerSnapshot): Promise<void> {
    this.checkUnique(l);
    this.rows.set(l.id, clone(l));
  }
  async insertMany(ls: readonly LearnerSnapshot[]): Promise<void> {
    for (const l of ls) await this.insert(l);
  }
  async update(l: LearnerSnapshot): Promise<void> {
    const cur = this.rows.get(l.id);
    if (!cur || cur.tenantId !== l.tenantId || cur.erasedAt) throw DomainError.notFound('learner', l.id);
    this.checkUnique(l);
    this.rows.set(l.id, clone(l));
  }
  async findById(tenantId: string, id: string) {
    return clone(this.live(tenantId).find((l) => l.id === id) ?? null);
  }
  async findByIds(tenantId: string, ids: readonly string[]) {
    const wanted = new Set(ids);
    return clone(this.live(tenantId).filter((l) => wanted.has(l.id)));
  }
  async findByIdNumber(tenantId: string, idNumber: string) {
    return clone(this.live(tenantId).find((l) => l.idNumber === idNumber) ?? null);
  }
  async findByEmail(tenantId: string, email: string) {
    return clone(this.live(tenantId).find((l) => l.email?.toLowerCase() === email.toLowerCase()) ?? null);
  }
  async findTaken(
    tenantId: string,
    idNumbers: readonly string[],
    emails: readonly string[],
    alternates: readonly string[] = [],
  ) {
    return takenValues(this.live(tenantId), idNumbers, emails, alternates);
  }
  async findByMobile(tenantId: string, mobile: string, limit: number) {
    return clone(
      this.live(tenantId)
        .filter((l) => l.mobile === mobile)
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .slice(0, limit),
    );
  }
  async findByEmployeeRef(tenantId: string, ref: string) {
    return clone(
      this.live(tenantId)
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .find((l) => l.employeeRef === ref) ?? null,
    );
  }
  async list(
    tenantId: string,
    f: LearnerFilter,
    page: PageRequest,
    order?: LearnerOrder,
  ): Promise<Page<LearnerSnapshot>> {
    const enrolments = () => [...(this.store.tables.enrolments?.values() ?? [])].filter((e) => e.tenantId === tenantId);
    return clone(listLearners(this.live(tenantId), enrolments, f, page, order));
  }
  async erase(tenantId: string, id: string, at: string): Promise<boolean> {
    const l = this.rows.get(id);
    if (!l || l.tenantId !== tenantId || l.erasedAt) return false;
    const kept = {
      id: l.id,
      tenantId,
      gender: l.gender,
      citizenship: l.citizenship,
      provinceCode: l.provinceCode,
      equityCode: l.equityCode,
      createdAt: l.createdAt,
    };
    this.rows.set(id, { ...kept, updatedAt: at, erasedAt: at } as LearnerSnapshot & { erasedAt: string });
    return true;
  }
}

export const learnerMemory: MemoryPart<LearnerRepos, LearnerTables, Reads> = {
  tables: () => ({ learners: new Map() }),
  repositories: (store) => ({ learners: new InMemoryLearnerRepository(store) }),
};

import {
  DomainError,
  learnerSearch,
  wordMatches,
  type EnrolledFilter,
  type EnrolmentSnapshot,
  type LearnerFilter,
  type LearnerOrder,
  pageInOrder,
  type LearnerRepository,
  type LearnerSnapshot,
  type Page,
  type PageRequest,
  type LearnerRepos,
} from '@fundi/domain';
import type { MemoryPart, MemoryStore } from '../common/memory-store.js';
import { pageOf } from '../common/paging.js';

export interface LearnerTables {
  learners: Map<string, LearnerSnapshot & { erasedAt?: string }>;
}

/** The training capability's enrolments, read for the enrolment filters and sorts (absent without training). */
type Reads = { enrolments?: Map<string, EnrolmentSnapshot> };

const ENROLMENT_KEYS = {
  programme: (e: EnrolmentSnapshot) => e.programmeCode,
  status: (e: EnrolmentSnapshot) => e.status,
  start: (e: EnrolmentSnapshot) => e.startDate,
} as const;

const meets = (e: EnrolmentSnapshot, f: EnrolledFilter) =>
  (!f.programmeCode || e.programmeCode === f.programmeCode) &&
  (!f.status || e.status === f.status) &&
  (!f.startFrom || e.startDate >= f.startFrom) &&
  (!f.startTo || e.startDate <= f.startTo);

const clone = <T>(x: T): T => structuredClone(x);

export class InMemoryLearnerRepository implements LearnerRepository {
  constructor(private readonly store: MemoryStore<LearnerTables & Reads>) {}
  /** Each learner's enrolments of the tenant meeting `f`. */
  private enrolled(tenantId: string, f: EnrolledFilter): Map<string, EnrolmentSnapshot[]> {
    const out = new Map<string, EnrolmentSnapshot[]>();
    for (const e of this.store.tables.enrolments?.values() ?? [])
      if (e.tenantId === tenantId && meets(e, f)) out.set(e.learnerId, [...(out.get(e.learnerId) ?? []), e]);
    return out;
  }
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
    const ids = new Set(idNumbers);
    const mails = new Set(emails.map((e) => e.toLowerCase()));
    const alts = new Set(alternates);
    const out = {
      idNumbers: new Map<string, string>(),
      emails: new Map<string, string>(),
      alternates: new Map<string, string>(),
    };
    for (const l of this.live(tenantId)) {
      const alt = l.alternateId ? `${l.alternateIdType}:${l.alternateId}` : null;
      if (alt && alts.has(alt)) out.alternates.set(alt, l.id);
      if (l.idNumber && ids.has(l.idNumber)) out.idNumbers.set(l.idNumber, l.id);
      const e = l.email?.toLowerCase();
      if (e && mails.has(e)) out.emails.set(e, l.id);
    }
    return out;
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
    const matches = this.matching(tenantId, f);
    if (!order || page.kind === 'cursor') return clone(pageOf(matches, page));
    const sign = order.descending ? -1 : 1;
    const by = order.by;
    const theirs = by === 'name' || by === 'idNumber' ? null : this.enrolled(tenantId, f.enrolled ?? {});
    // An enrolment field: the learner's first value in the sort's direction.
    const first = (l: LearnerSnapshot) => {
      const values = (theirs?.get(l.id) ?? []).map((e) => ENROLMENT_KEYS[by as keyof typeof ENROLMENT_KEYS](e)).sort();
      return (order.descending ? values.at(-1) : values[0]) ?? null;
    };
    const key = (l: LearnerSnapshot) =>
      by === 'name'
        ? `${l.lastName.toLowerCase()}\u0000${l.firstName.toLowerCase()}`
        : by === 'idNumber'
          ? l.idNumber
          : first(l);
    const sorted = matches.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      // Learners without the field come last either way; ties by id.
      if (ka !== kb) return ka == null ? 1 : kb == null ? -1 : ka < kb ? -sign : sign;
      return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    });
    return clone(pageInOrder(sorted, page, (l) => l.id));
  }
  private matching(tenantId: string, f: LearnerFilter): LearnerSnapshot[] {
    const s = f.search ? learnerSearch(f.search) : null;
    const ids = f.ids ? new Set(f.ids) : null;
    const enrolled = f.enrolled ? this.enrolled(tenantId, f.enrolled) : null;
    const employer = f.employer?.toLowerCase();
    return this.live(tenantId).filter(
      (l) =>
        (!f.employeeRef || l.employeeRef === f.employeeRef) &&
        (!employer || (l.employer ?? '').toLowerCase().includes(employer)) &&
        (!ids || ids.has(l.id)) &&
        (!enrolled || enrolled.has(l.id)) &&
        (!f.createdFrom || l.createdAt >= f.createdFrom) &&
        (!f.updatedFrom || l.updatedAt >= f.updatedFrom) &&
        (!f.updatedTo || l.updatedAt <= f.updatedTo) &&
        (!f.createdTo || l.createdAt <= f.createdTo) &&
        (!s || (s.mobile ? l.mobile === s.mobile : s.words.every((w) => wordMatches(w, l)))),
    );
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

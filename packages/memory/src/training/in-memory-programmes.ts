import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type { ProgrammeRepository, ProgrammeSnapshot, ProgrammeType } from '@fundi/domain/training';
import type { MemoryStore } from '../common/memory-store.js';
import { pageOf } from '../common/paging.js';
import { type TrainingTables, clone } from './training-tables.js';

export class InMemoryProgrammeRepository implements ProgrammeRepository {
  constructor(private readonly store: MemoryStore<TrainingTables>) {}
  private of(tenantId: string): ProgrammeSnapshot[] {
    return [...this.store.tables.programmes.values()].filter((p) => p.tenantId === tenantId);
  }
  async insert(p: ProgrammeSnapshot) {
    if (this.of(p.tenantId).some((o) => o.code === p.code)) {
      throw DomainError.conflict('duplicate_programme_code', 'A programme with this code already exists', [
        { field: 'code', message: 'is already used by another programme' },
      ]);
    }
    this.store.tables.programmes.set(p.id, clone(p));
  }
  async update(p: ProgrammeSnapshot) {
    const cur = this.store.tables.programmes.get(p.id);
    if (!cur || cur.tenantId !== p.tenantId) throw DomainError.notFound('programme', p.id);
    this.store.tables.programmes.set(p.id, clone({ ...p, code: cur.code, createdAt: cur.createdAt }));
  }
  async delete(tenantId: string, id: string) {
    const cur = this.store.tables.programmes.get(id);
    return cur?.tenantId === tenantId ? this.store.tables.programmes.delete(id) : false;
  }
  async findById(tenantId: string, id: string) {
    return clone(this.of(tenantId).find((p) => p.id === id) ?? null);
  }
  async findByCode(tenantId: string, code: string) {
    return clone(this.of(tenantId).find((p) => p.code === code) ?? null);
  }
  async findByIds(tenantId: string, ids: readonly string[]) {
    return clone(this.of(tenantId).filter((p) => ids.includes(p.id)));
  }
  async list(
    tenantId: string,
    f: { status?: 'active' | 'retired'; type?: ProgrammeType },
    page: PageRequest,
  ): Promise<Page<ProgrammeSnapshot>> {
    return clone(
      pageOf(
        this.of(tenantId).filter((p) => (!f.status || p.status === f.status) && (!f.type || p.type === f.type)),
        page,
      ),
    );
  }
}

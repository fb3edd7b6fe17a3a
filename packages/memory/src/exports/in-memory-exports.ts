import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type {
  ExportRepos,
  ExportRepository,
  ExportSnapshot,
  RegulatorSettings,
  RegulatorSettingsRepository,
} from '@fundi/domain/exports';
import type { MemoryPart, MemoryStore } from '../common/memory-store.js';
import { pageOf } from '../common/paging.js';

export interface ExportTables {
  exports: Map<string, ExportSnapshot>;
  regulatorSettings: Map<string, RegulatorSettings>;
}

const clone = <T>(x: T): T => structuredClone(x);

export class InMemoryExportRepository implements ExportRepository {
  constructor(private readonly store: MemoryStore<ExportTables>) {}
  private get rows() {
    return this.store.tables.exports;
  }
  async insert(e: ExportSnapshot): Promise<void> {
    this.rows.set(e.id, clone(e));
  }
  async update(e: ExportSnapshot): Promise<void> {
    const cur = this.rows.get(e.id);
    if (!cur || cur.tenantId !== e.tenantId) throw DomainError.notFound('export', e.id);
    this.rows.set(e.id, clone(e));
  }
  async recordProgress(tenantId: string, id: string, processedRows: number, totalRows: number | null) {
    const cur = this.rows.get(id);
    if (cur && cur.tenantId === tenantId && cur.status === 'processing')
      this.rows.set(id, { ...cur, processedRows, totalRows });
  }
  async findById(tenantId: string, id: string): Promise<ExportSnapshot | null> {
    const e = this.rows.get(id);
    return e && e.tenantId === tenantId ? clone(e) : null;
  }
  async list(tenantId: string, page: PageRequest): Promise<Page<ExportSnapshot>> {
    return clone(
      pageOf(
        [...this.rows.values()].filter((e) => e.tenantId === tenantId),
        page,
      ),
    );
  }
  async expired(at: string, limit: number): Promise<ExportSnapshot[]> {
    return clone(
      [...this.rows.values()]
        .filter((e) => e.status === 'ready' && e.expiresAt !== null && e.expiresAt <= at && e.purgedAt === null)
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .slice(0, limit),
    );
  }
  async madeBefore(tenantId: string, at: string, afterId: string | null, limit: number): Promise<ExportSnapshot[]> {
    return clone(
      [...this.rows.values()]
        .filter((e) => e.tenantId === tenantId && e.id > (afterId ?? '') && e.createdAt <= at)
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .slice(0, limit),
    );
  }
}

export class InMemoryRegulatorSettingsRepository implements RegulatorSettingsRepository {
  constructor(private readonly store: MemoryStore<ExportTables>) {}
  async get(tenantId: string): Promise<RegulatorSettings | null> {
    return clone(this.store.tables.regulatorSettings.get(tenantId) ?? null);
  }
  async put(tenantId: string, settings: RegulatorSettings): Promise<void> {
    this.store.tables.regulatorSettings.set(tenantId, clone(settings));
  }
}

export const exportMemory: MemoryPart<ExportRepos, ExportTables> = {
  tables: () => ({ exports: new Map(), regulatorSettings: new Map() }),
  repositories: (store) => ({
    exports: new InMemoryExportRepository(store),
    regulatorSettings: new InMemoryRegulatorSettingsRepository(store),
  }),
};

import type { PageRequest } from '@fundi/domain';
import type {
  ImportFormat,
  ImportMessages,
  ImportProgress,
  ImportRepos,
  ImportRepository,
  ImportSnapshot,
  ImportStatus,
  ImportType,
  RowError,
} from '@fundi/domain/imports';
import type { MemoryPart, MemoryStore } from '../common/memory-store.js';
import { pageOf } from '../common/paging.js';

export interface ImportTables {
  imports: Map<string, ImportSnapshot>;
  /** Key: import id; in `seq` order. */
  importErrors: Map<string, (RowError & { seq: number })[]>;
  /** Key: `tenantId type`; header -> column. */
  importColumnMaps: Map<string, Record<string, string>>;
}

export class InMemoryImportRepository implements ImportRepository {
  constructor(private readonly store: MemoryStore<ImportTables>) {}

  private get t() {
    return this.store.tables;
  }

  async insert(i: ImportSnapshot) {
    this.t.imports.set(i.id, { ...i });
  }

  async findById(tenantId: string, id: string) {
    const i = this.t.imports.get(id);
    return i && i.tenantId === tenantId ? { ...i } : null;
  }

  async list(tenantId: string, f: { status?: ImportStatus; type?: ImportType }, page: PageRequest) {
    const all = [...this.t.imports.values()].filter(
      (i) => i.tenantId === tenantId && (!f.status || i.status === f.status) && (!f.type || i.type === f.type),
    );
    const p = pageOf(all, page);
    return { ...p, items: p.items.map((i) => ({ ...i })) };
  }

  async transition(
    tenantId: string,
    id: string,
    from: ImportStatus,
    to: ImportStatus,
    set: Partial<ImportProgress> & {
      completedAt?: string;
      confirmedBy?: string;
      format?: ImportFormat;
      messages?: ImportMessages;
    },
  ) {
    const i = this.t.imports.get(id);
    if (!i || i.tenantId !== tenantId || i.status !== from) return false;
    this.t.imports.set(id, { ...i, ...set, status: to });
    return true;
  }

  async recordProgress(
    tenantId: string,
    id: string,
    status: ImportStatus,
    set: Partial<ImportProgress>,
    expectProcessed?: number,
  ) {
    const i = this.t.imports.get(id);
    if (!i || i.tenantId !== tenantId || i.status !== status) return false;
    if (expectProcessed !== undefined && i.processed !== expectProcessed) return false;
    this.t.imports.set(id, { ...i, ...set });
    return true;
  }

  async addErrors(importId: string, fromSeq: number, errors: readonly RowError[]) {
    const list = this.t.importErrors.get(importId) ?? [];
    errors.forEach((e, n) => void list.push({ ...e, seq: fromSeq + n }));
    this.t.importErrors.set(importId, list);
  }

  async finishedBefore(before: string, limit: number) {
    return [...this.t.imports.values()]
      .filter(
        (i) => (i.status === 'completed' || i.status === 'failed') && i.completedAt !== null && i.completedAt < before,
      )
      .sort((a, b) => (a.completedAt! < b.completedAt! ? -1 : 1))
      .slice(0, limit)
      .map((i) => ({ tenantId: i.tenantId, id: i.id, fileKey: i.fileKey }));
  }

  async deleteMany(ids: readonly string[]) {
    let n = 0;
    for (const id of ids) {
      this.t.importErrors.delete(id);
      if (this.t.imports.delete(id)) n++;
    }
    return n;
  }

  async forgetErrorDetails(importIds: readonly string[]) {
    for (const id of importIds)
      this.t.importErrors.set(
        id,
        (this.t.importErrors.get(id) ?? []).map(({ value: _v, learner: _l, ...rest }) => rest),
      );
  }

  async columnMap(tenantId: string, type: ImportType) {
    return { ...(this.t.importColumnMaps.get(`${tenantId} ${type}`) ?? {}) };
  }

  async saveColumnMap(tenantId: string, type: ImportType, entries: Readonly<Record<string, string | null>>) {
    const map = { ...(this.t.importColumnMaps.get(`${tenantId} ${type}`) ?? {}) };
    for (const [header, column] of Object.entries(entries))
      if (column === null) delete map[header];
      else map[header] = column;
    this.t.importColumnMaps.set(`${tenantId} ${type}`, map);
  }

  async clearErrors(importId: string) {
    this.t.importErrors.delete(importId);
  }

  async errors(importId: string, offset: number, limit: number) {
    return (this.t.importErrors.get(importId) ?? [])
      .slice(offset, offset + limit)
      .map(({ seq: _s, ...e }) => ({ ...e, ...(e.learner ? { learner: { ...e.learner } } : {}) }));
  }
}

export const importMemory: MemoryPart<ImportRepos, ImportTables> = {
  tables: () => ({ imports: new Map(), importErrors: new Map(), importColumnMaps: new Map() }),
  repositories: (store) => ({ imports: new InMemoryImportRepository(store) }),
};

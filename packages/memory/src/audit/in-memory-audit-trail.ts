import { pageInOrder, type PageRequest } from '@fundi/domain';
import {
  entryOfRow,
  type AuditFilter,
  type AuditRecord,
  type AuditRepos,
  type AuditTrail,
  type ChainRow,
} from '@fundi/domain/audit';
import type { MemoryPart, MemoryStore } from '../common/memory-store.js';
import type { PlatformTables } from '../platform/in-memory-platform.js';

const matches = (r: ChainRow, f: AuditFilter) =>
  (!f.entityType || r.resourceType === f.entityType) &&
  (!f.entityId || r.resourceId === f.entityId) &&
  (!f.entityIds || f.entityIds.includes(r.resourceId)) &&
  (!f.learnerId || r.learnerId === f.learnerId) &&
  (!f.actorId || r.actor === f.actorId) &&
  (!f.action || r.action === f.action) &&
  (!f.from || r.at >= f.from) &&
  (!f.to || r.at <= f.to);

/** The audit trail over the platform's tables in memory (the same rules as `SqlAuditTrail`). */
export class InMemoryAuditTrail implements AuditTrail {
  constructor(private readonly store: MemoryStore<PlatformTables>) {}

  async list(tenantId: string, f: AuditFilter, page: PageRequest) {
    const rows = this.store.tables.audit
      .filter((r) => r.tenantId === tenantId && matches(r, f))
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    const start = page.kind === 'cursor' && page.after ? rows.filter((r) => r.id < page.after!) : rows;
    const found =
      page.kind === 'cursor'
        ? { items: start.slice(0, page.limit), total: rows.length, hasMore: start.length > page.limit }
        : pageInOrder(rows, page, (r) => r.id);
    return { ...found, items: found.items.map((r) => this.record(r)) };
  }

  async chain(tenantId: string, afterSeq: number, limit: number) {
    const rows = this.store.tables.audit
      .filter((r) => r.tenantId === tenantId && r.seq > afterSeq)
      .sort((a, b) => a.seq - b.seq)
      .slice(0, limit);
    const personal = rows.flatMap((r) => {
      const p = this.store.tables.auditPersonal.get(r.id);
      return p ? [structuredClone(p)] : [];
    });
    return { rows: structuredClone(rows), personal };
  }

  async head(tenantId: string) {
    const h = this.store.tables.auditHeads.get(tenantId);
    return h ? { ...h } : null;
  }

  private record(r: ChainRow): AuditRecord {
    const p = this.store.tables.auditPersonal.get(r.id);
    return {
      ...entryOfRow(r),
      personalFields: r.personalFields ? (JSON.parse(r.personalFields) as string[]) : [],
      personalValues: p ? JSON.parse(p.data) : null,
    };
  }
}

/** The audit capability's memory part: no tables of its own, it reads the platform's. */
export const auditMemory: MemoryPart<AuditRepos, object, PlatformTables> = {
  tables: () => ({}),
  repositories: (store) => ({ auditTrail: new InMemoryAuditTrail(store) }),
};

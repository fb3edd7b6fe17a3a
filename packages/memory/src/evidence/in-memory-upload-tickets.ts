import type { UploadTicketRepository, UploadTicketSnapshot } from '@fundi/domain/evidence';
import type { MemoryStore } from '../common/memory-store.js';
import type { EvidenceTables } from './evidence-tables.js';

const clone = <T>(x: T): T => structuredClone(x);

/** Form A upload tickets: each can be consumed once. */
export class InMemoryUploadTicketRepository implements UploadTicketRepository {
  constructor(private readonly store: MemoryStore<EvidenceTables>) {}

  async insert(t: UploadTicketSnapshot) {
    this.store.tables.uploadTickets.set(t.id, clone(t));
  }

  async findById(tenantId: string, id: string) {
    const t = this.store.tables.uploadTickets.get(id);
    return t && t.tenantId === tenantId ? clone(t) : null;
  }

  async consume(tenantId: string, id: string, at: string) {
    const t = this.store.tables.uploadTickets.get(id);
    if (!t || t.tenantId !== tenantId || t.usedAt) return false;
    this.store.tables.uploadTickets.set(id, { ...t, usedAt: at });
    return true;
  }

  async removeOfLearner(tenantId: string, learnerId: string) {
    let n = 0;
    for (const [id, t] of this.store.tables.uploadTickets)
      if (t.tenantId === tenantId && t.learnerId === learnerId && this.store.tables.uploadTickets.delete(id)) n++;
    return n;
  }
}

import type { UploadKeyRepository, UploadKeySnapshot } from '@fundi/domain/evidence';
import type { MemoryStore } from '../common/memory-store.js';
import type { EvidenceTables } from './evidence-tables.js';

const clone = <T>(x: T): T => structuredClone(x);

/** Upload keys by tenant and key: a claim takes a free key only. */
export class InMemoryUploadKeyRepository implements UploadKeyRepository {
  constructor(private readonly store: MemoryStore<EvidenceTables>) {}
  private get rows() {
    return this.store.tables.uploadKeys;
  }
  async claim(u: UploadKeySnapshot) {
    const id = `${u.tenantId}|${u.key}`;
    if (this.rows.has(id)) return false;
    this.rows.set(id, clone(u));
    return true;
  }
  async find(tenantId: string, key: string) {
    return clone(this.rows.get(`${tenantId}|${key}`) ?? null);
  }
  async complete(tenantId: string, key: string, evidenceId: string) {
    const u = this.rows.get(`${tenantId}|${key}`);
    if (u) u.evidenceId = evidenceId;
  }
  async release(tenantId: string, key: string) {
    this.rows.delete(`${tenantId}|${key}`);
  }
  async deleteExpired(before: string, limit = Number.POSITIVE_INFINITY) {
    const gone = [...this.rows.entries()]
      .filter(([, r]) => r.expiresAt < before)
      .sort(([, a], [, b]) => (a.expiresAt < b.expiresAt ? -1 : 1))
      .slice(0, limit);
    for (const [k] of gone) this.rows.delete(k);
    return gone.length;
  }
}

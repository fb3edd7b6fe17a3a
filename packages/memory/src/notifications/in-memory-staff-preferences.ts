import type { NotificationPreferences, StaffPreferenceRepository } from '@fundi/domain/notifications';
import type { MemoryStore } from '../common/memory-store.js';
import type { NotificationTables } from './notification-tables.js';

/** Each staff user's notification preferences, by tenant and user. */
export class InMemoryStaffPreferenceRepository implements StaffPreferenceRepository {
  constructor(private readonly store: MemoryStore<NotificationTables>) {}
  private get rows() {
    return this.store.tables.staffPreferences;
  }
  async forUsers(tenantId: string, userIds: readonly string[]): Promise<Map<string, NotificationPreferences>> {
    const out = new Map<string, NotificationPreferences>();
    for (const id of userIds) {
      const r = this.rows.get(`${tenantId}\u0000${id}`);
      if (r) out.set(id, structuredClone(r.preferences));
    }
    return out;
  }
  async put(tenantId: string, userId: string, preferences: NotificationPreferences, at: string): Promise<void> {
    this.rows.set(`${tenantId}\u0000${userId}`, { preferences: structuredClone(preferences), updatedAt: at });
  }
}

import type { NotificationTemplateRepository, TemplateOverride } from '@fundi/domain/notifications';
import type { MemoryStore } from '../common/memory-store.js';
import type { NotificationTables } from './notification-tables.js';

const clone = <T>(x: T): T => structuredClone(x);

/** A tenant's own versions of email templates. */
export class InMemoryNotificationTemplateRepository implements NotificationTemplateRepository {
  constructor(private readonly store: MemoryStore<NotificationTables>) {}
  private get rows() {
    return this.store.tables.notificationTemplates;
  }
  async get(tenantId: string, key: string): Promise<TemplateOverride | null> {
    const t = this.rows.get(`${tenantId}\u0000${key}`);
    if (!t) return null;
    const { tenantId: _, ...rest } = t;
    return clone(rest);
  }
  async list(tenantId: string): Promise<TemplateOverride[]> {
    return [...this.rows.values()]
      .filter((t) => t.tenantId === tenantId)
      .sort((a, b) => (a.key < b.key ? -1 : 1))
      .map(({ tenantId: _, ...rest }) => clone(rest));
  }
  async put(tenantId: string, t: TemplateOverride): Promise<void> {
    this.rows.set(`${tenantId}\u0000${t.key}`, clone({ ...t, tenantId }));
  }
  async delete(tenantId: string, key: string): Promise<boolean> {
    return this.rows.delete(`${tenantId}\u0000${key}`);
  }
}

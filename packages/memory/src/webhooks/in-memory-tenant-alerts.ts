import type { TenantAlert, TenantAlertLog } from '@fundi/domain/webhooks';
import type { WebhookStore } from './webhook-tables.js';

const clone = <T>(x: T): T => structuredClone(x);
const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Alerts for a tenant's administrators (a subscription stopped by failed deliveries). */
export class InMemoryTenantAlertLog implements TenantAlertLog {
  constructor(private readonly store: WebhookStore) {}
  async add(a: TenantAlert) {
    this.store.tables.tenantAlerts.push(clone(a));
  }
  async list(tenantId: string, limit: number) {
    return clone(
      this.store.tables.tenantAlerts
        .filter((a) => a.tenantId === tenantId)
        .sort(byId)
        .reverse()
        .slice(0, limit),
    );
  }
}

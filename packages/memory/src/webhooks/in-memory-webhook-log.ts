import type { Page, PageRequest } from '@fundi/domain';
import type { AttemptSnapshot, WebhookAttemptLog } from '@fundi/domain/webhooks';
import type { WebhookStore } from './webhook-tables.js';

const clone = <T>(x: T): T => structuredClone(x);
const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The attempt log: every attempt of every delivery, newest first. */
export class InMemoryWebhookAttemptLog implements WebhookAttemptLog {
  constructor(private readonly store: WebhookStore) {}
  async list(tenantId: string, subscriptionId: string, page: PageRequest): Promise<Page<AttemptSnapshot>> {
    const all = this.store.tables.webhookAttempts
      .filter((a) => a.tenantId === tenantId && a.subscriptionId === subscriptionId)
      .sort(byId)
      .reverse();
    const from = page.kind === 'cursor' ? all.filter((a) => !page.after || a.id < page.after) : all.slice(page.offset);
    return clone({ items: from.slice(0, page.limit), total: all.length, hasMore: from.length > page.limit });
  }
  async forgetResponses(tenantId: string, eventIds: readonly string[]) {
    const hit = this.store.tables.webhookAttempts.filter(
      (a) => a.tenantId === tenantId && eventIds.includes(a.eventId) && a.responseExcerpt !== null,
    );
    for (const a of hit) a.responseExcerpt = null;
    return hit.length;
  }
}

import type { Page, PageRequest } from '@fundi/domain';
import type { AttemptSnapshot, WebhookAttemptLog } from '@fundi/domain/webhooks';
import type { SqlDb } from '../db/sql-db.js';
import { chunks, marks, type Row } from '../db/sql-helpers.js';
import { rowToAttempt } from './webhook-attempt-rows.js';

export class SqlWebhookAttemptLog implements WebhookAttemptLog {
  constructor(private readonly db: SqlDb) {}

  /** Newest first (the shared paging helper orders ascending, so this list pages on its own). */
  async list(tenantId: string, subscriptionId: string, page: PageRequest): Promise<Page<AttemptSnapshot>> {
    const where = 'tenant_id = ? AND subscription_id = ?';
    const total = await this.db.first<{ n: number }>(`SELECT count(*) AS n FROM webhook_attempts WHERE ${where}`, [
      tenantId,
      subscriptionId,
    ]);
    const rows =
      page.kind === 'cursor'
        ? await this.db.all<Row>(`SELECT * FROM webhook_attempts WHERE ${where} AND id < ? ORDER BY id DESC LIMIT ?`, [
            tenantId,
            subscriptionId,
            page.after ?? '~',
            page.limit + 1,
          ])
        : await this.db.all<Row>(`SELECT * FROM webhook_attempts WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`, [
            tenantId,
            subscriptionId,
            page.limit + 1,
            page.offset,
          ]);
    return {
      items: rows.slice(0, page.limit).map(rowToAttempt),
      total: Number(total?.n ?? 0),
      hasMore: rows.length > page.limit,
    };
  }

  async forgetResponses(tenantId: string, eventIds: readonly string[]): Promise<number> {
    let changed = 0;
    for (const part of chunks(eventIds, 500)) {
      const sql = `UPDATE webhook_attempts SET response_excerpt = NULL WHERE tenant_id = ? AND response_excerpt IS NOT NULL AND event_id IN (${marks(part.length)})`;
      changed += (await this.db.run(sql, [tenantId, ...part])).changes;
    }
    return changed;
  }
}

import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type { WebhookSubscriptionRepository, WebhookSubscriptionSnapshot } from '@fundi/domain/webhooks';
import type { Knex } from 'knex';
import type { SqlDb } from '../db/sql-db.js';
import { pageQuery } from '../db/paging.js';
import { marks, type Row } from '../db/sql-helpers.js';
import { SUBSCRIPTION_COLUMNS, rowToSubscription, subscriptionToRow } from './webhook-rows.js';

const INSERT = `INSERT INTO webhook_subscriptions (${SUBSCRIPTION_COLUMNS.join(', ')}) VALUES (${marks(SUBSCRIPTION_COLUMNS.length)})`;
// The purpose (last column) never changes.
const UPDATABLE = SUBSCRIPTION_COLUMNS.slice(2, -1);
const UPDATE = `UPDATE webhook_subscriptions SET ${UPDATABLE.map((c) => `${c} = ?`).join(', ')} WHERE id = ? AND tenant_id = ?`;

export class SqlWebhookSubscriptionRepository implements WebhookSubscriptionRepository {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  async insert(s: WebhookSubscriptionSnapshot): Promise<void> {
    await this.db.run(INSERT, subscriptionToRow(s));
  }

  async update(s: WebhookSubscriptionSnapshot): Promise<void> {
    const { changes } = await this.db.run(UPDATE, [...subscriptionToRow(s).slice(2, -1), s.id, s.tenantId]);
    if (changes === 0) throw DomainError.notFound('webhook_subscription', s.id);
  }

  async findById(tenantId: string, id: string): Promise<WebhookSubscriptionSnapshot | null> {
    const row = await this.db.first<Row>('SELECT * FROM webhook_subscriptions WHERE tenant_id = ? AND id = ?', [
      tenantId,
      id,
    ]);
    return row ? rowToSubscription(row) : null;
  }

  list(tenantId: string, page: PageRequest): Promise<Page<WebhookSubscriptionSnapshot>> {
    return pageQuery(
      this.db,
      this.qb('webhook_subscriptions').select('*').where({ tenant_id: tenantId, purpose: 'webhook' }),
      page,
      rowToSubscription,
    );
  }

  async listForTenants(tenantIds: readonly string[]): Promise<WebhookSubscriptionSnapshot[]> {
    if (tenantIds.length === 0) return [];
    const rows = await this.db.all<Row>(
      `SELECT * FROM webhook_subscriptions WHERE tenant_id IN (${marks(tenantIds.length)})`,
      tenantIds,
    );
    return rows.map(rowToSubscription);
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const { changes } = await this.db.run('DELETE FROM webhook_subscriptions WHERE tenant_id = ? AND id = ?', [
      tenantId,
      id,
    ]);
    if (changes === 0) return false;
    await this.db.run('DELETE FROM webhook_deliveries WHERE subscription_id = ?', [id]);
    await this.db.run('DELETE FROM webhook_attempts WHERE subscription_id = ?', [id]);
    return true;
  }
}

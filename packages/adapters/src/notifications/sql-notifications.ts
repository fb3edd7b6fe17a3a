import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import {
  withoutDetails,
  type NotificationChannel,
  type NotificationFilter,
  type NotificationRepos,
  type NotificationRepository,
  type NotificationSnapshot,
} from '@fundi/domain/notifications';
import { notificationMemory } from '@fundi/memory/notifications';
import type { Knex } from 'knex';
import { PLAN_PER_CALL, type SqlDb } from '../db/sql-db.js';
import { pageQuery } from '../db/paging.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';
import { notificationsMigration } from './migrations/202611241851-notifications.js';
import { notificationRetentionIndexes } from './migrations/202611270941-retention-indexes.js';
import { insertNotifications, updateNotificationOutcomes } from './sql-notification-batches.js';
import { COLUMNS, fromRow, json, type Row, toRow } from './sql-notification-rows.js';
import { notificationLearnerLink } from './migrations/202611271018-learner-link.js';
import { staffPreferences } from './migrations/202611281053-staff-preferences.js';
import { notificationProviderIdIndex } from './migrations/202611281622-provider-id-index.js';
import { notificationDedupeIndex } from './migrations/202611281953-dedupe-index.js';
import { SqlStaffPreferenceRepository } from './sql-staff-preferences.js';
import { SqlNotificationSettingsRepository, SqlNotificationTemplateRepository } from './sql-notification-settings.js';

// Template and settings repositories live in sql-notification-settings.ts; re-exported beside the notification
// repository, so one module names every notifications repository.
export { SqlNotificationSettingsRepository, SqlNotificationTemplateRepository };

const UPDATABLE = COLUMNS.slice(2);
const UPDATE = `UPDATE notifications SET ${UPDATABLE.map((c) => `${c} = ?`).join(', ')} WHERE tenant_id = ? AND id = ?`;

export class SqlNotificationRepository implements NotificationRepository {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  insertMany(ns: readonly NotificationSnapshot[]): Promise<NotificationSnapshot[]> {
    return insertNotifications(this.db, ns);
  }

  async update(n: NotificationSnapshot): Promise<void> {
    const { changes } = await this.db.run(UPDATE, [...toRow(n).slice(2), n.tenantId, n.id]);
    if (changes === 0) throw DomainError.notFound('notification', n.id);
  }

  updateOutcomes(tenantId: string, ns: readonly NotificationSnapshot[]): Promise<void> {
    return updateNotificationOutcomes(this.db, tenantId, ns);
  }

  async findById(tenantId: string, id: string): Promise<NotificationSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM notifications WHERE tenant_id = ? AND id = ?', [tenantId, id]);
    return r ? fromRow(r) : null;
  }

  async findMany(tenantId: string, ids: readonly string[]): Promise<NotificationSnapshot[]> {
    if (ids.length === 0) return [];
    const out: NotificationSnapshot[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      // By id alone, so the primary key is used (with the tenant in the WHERE, SQLite picks the tenant's index
      // and reads every row of the tenant); the tenant is checked on the rows.
      const rows = await this.db.all<Row>(
        `${PLAN_PER_CALL}SELECT * FROM notifications WHERE id IN (${part.map(() => '?').join(', ')})`,
        part,
      );
      for (const r of rows) if (r.tenant_id === tenantId) out.push(fromRow(r));
    }
    return out;
  }

  async findByProviderMessageId(channel: NotificationChannel, id: string): Promise<NotificationSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM notifications WHERE channel = ? AND provider_message_id = ?', [
      channel,
      id,
    ]);
    return r ? fromRow(r) : null;
  }

  list(tenantId: string, f: NotificationFilter, page: PageRequest): Promise<Page<NotificationSnapshot>> {
    const q = this.qb('notifications').select('*').where('tenant_id', tenantId);
    if (f.recipientId) q.where('recipient_id', f.recipientId);
    if (f.channel) q.where('channel', f.channel);
    if (f.status) q.where('status', f.status);
    if (f.template) q.where('template', f.template);
    return pageQuery(this.db, q, page, fromRow);
  }

  async redactLearner(tenantId: string, learnerId: string, mentions: readonly string[] = []): Promise<number> {
    // A notification to a learner names them as its learner too (migration 030 linked the older ones).
    const rows = await this.db.all<Row>(
      'SELECT id, recipient_id, history FROM notifications WHERE tenant_id = ? AND learner_id = ?',
      [tenantId, learnerId],
    );
    if (mentions.length)
      // The API's messages to staff (they name no learner), through their partial index (migration 030): a handful,
      // not the tenant's every notification.
      rows.push(
        ...(await this.db.all<Row>(
          `SELECT id, recipient_id, history FROM notifications
             WHERE tenant_id = ? AND trigger_key IS NULL AND recipient_type = 'user' AND content IS NOT NULL
               AND (${mentions.map(() => `content ${this.db.dialect.ilike} ? ESCAPE '!'`).join(' OR ')})`,
          [tenantId, ...mentions.map((m) => `%${m.replace(/[!%_]/g, '!$&')}%`)],
        )),
      );
    for (const r of rows)
      await this.db.run(
        `UPDATE notifications SET content = NULL, history = ?, learner_id = ?,
           to_address = CASE WHEN recipient_id = ? THEN NULL ELSE to_address END WHERE id = ?`,
        [JSON.stringify(withoutDetails(json(r.history) ?? [])), learnerId, learnerId, r.id as string],
      );
    return rows.length;
  }

  async redactedAmong(tenantId: string, ids: readonly string[]): Promise<string[]> {
    const found: string[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      // By id alone (the primary key), the tenant checked on the rows, as in `findMany`.
      const rows = await this.db.all<{ id: string; tenant_id: string }>(
        `${PLAN_PER_CALL}SELECT id, tenant_id FROM notifications WHERE id IN (${part.map(() => '?').join(', ')})
           AND learner_id IS NOT NULL AND content IS NULL`,
        part,
      );
      for (const r of rows) if (r.tenant_id === tenantId) found.push(r.id);
    }
    return found;
  }

  async idsAbout(tenantId: string, learnerId: string): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>(
      'SELECT id FROM notifications WHERE tenant_id = ? AND learner_id = ? ORDER BY id',
      [tenantId, learnerId],
    );
    return rows.map((r) => r.id);
  }

  async pruneSettled(before: string, limit: number): Promise<number> {
    const pick = `SELECT id FROM notifications WHERE status <> 'queued' AND updated_at < ? ORDER BY updated_at LIMIT ?`;
    const sql = `DELETE FROM notifications WHERE ${this.db.dialect.amongPicked('id', pick)}`;
    return (await this.db.run(sql, [before, limit])).changes;
  }
}

export const notificationStorage: CapabilityStorage<NotificationRepos> = {
  migrations: [
    notificationsMigration,
    notificationRetentionIndexes,
    notificationLearnerLink,
    staffPreferences,
    notificationProviderIdIndex,
    notificationDedupeIndex,
  ],
  sql: (db, qb) => ({
    notifications: new SqlNotificationRepository(db, qb),
    notificationTemplates: new SqlNotificationTemplateRepository(db),
    notificationSettings: new SqlNotificationSettingsRepository(db),
    staffPreferences: new SqlStaffPreferenceRepository(db),
  }),
  memory: notificationMemory,
  erasureTables: ['notifications'],
};

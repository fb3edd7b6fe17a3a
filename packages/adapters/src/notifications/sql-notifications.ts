import {
  DomainError,
  type NotificationChannel,
  type NotificationFilter,
  type NotificationRepos,
  type NotificationRepository,
  type NotificationSettingsRepository,
  type NotificationSnapshot,
  type NotificationTemplateRepository,
  type Page,
  type PageRequest,
  type StoredNotificationSettings,
  type TemplateOverride,
} from '@fundi/domain';
import { notificationMemory } from '@fundi/fakes';
import type { Knex } from 'knex';
import { PLAN_PER_CALL, type Binding, type SqlDb } from '../db/sql-db.js';
import { pageQuery } from '../repos/paging.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';
import { notificationsMigration } from './015-notifications.js';

type Row = Record<string, unknown>;
const s = (v: unknown) => (v ?? null) as string | null;
const json = <T>(v: unknown): T | null => (v === null || v === undefined ? null : (JSON.parse(v as string) as T));

const COLUMNS = [
  'id',
  'tenant_id',
  'recipient_type',
  'recipient_id',
  'channel',
  'template',
  'to_address',
  'content',
  'status',
  'history',
  'attempts',
  'provider_message_id',
  'trigger_key',
  'dedupe_key',
  'created_by',
  'created_at',
  'updated_at',
];

function toRow(n: NotificationSnapshot): Binding[] {
  return [
    n.id,
    n.tenantId,
    n.recipientType,
    n.recipientId,
    n.channel,
    n.template,
    n.to,
    n.content ? JSON.stringify(n.content) : null,
    n.status,
    JSON.stringify(n.history),
    n.attempts,
    n.providerMessageId,
    n.trigger,
    n.dedupeKey,
    n.createdBy,
    n.createdAt,
    n.updatedAt,
  ];
}

function fromRow(r: Row): NotificationSnapshot {
  return {
    id: r.id as string,
    tenantId: r.tenant_id as string,
    recipientType: r.recipient_type as NotificationSnapshot['recipientType'],
    recipientId: r.recipient_id as string,
    channel: r.channel as NotificationChannel,
    template: r.template as string,
    to: s(r.to_address),
    content: json(r.content),
    status: r.status as NotificationSnapshot['status'],
    history: json(r.history) ?? [],
    attempts: Number(r.attempts),
    providerMessageId: s(r.provider_message_id),
    trigger: s(r.trigger_key),
    dedupeKey: s(r.dedupe_key),
    createdBy: r.created_by as string,
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
  };
}

/** Rows per INSERT: well under SQLite's limit of bound values. */
const INSERT_CHUNK = 400;
const ROW_MARKS = `(${COLUMNS.map(() => '?').join(', ')})`;
const UPDATABLE = COLUMNS.slice(2);
const UPDATE = `UPDATE notifications SET ${UPDATABLE.map((c) => `${c} = ?`).join(', ')} WHERE tenant_id = ? AND id = ?`;

export class SqlNotificationRepository implements NotificationRepository {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  async insertMany(ns: readonly NotificationSnapshot[]): Promise<NotificationSnapshot[]> {
    if (ns.length === 0) return [];
    const inserted = new Set<string>();
    // RETURNING is a write: on SQLite it must run on the writer, so outside a transaction open one (a transaction
    // already open is joined).
    await this.db.transaction(async (tx) => {
      if (tx.dialect.name === 'postgres') {
        // One array per column (unnest): binding 17 arrays is far cheaper for Postgres than thousands of values.
        const values = ns.map(toRow);
        const columns = COLUMNS.map((_, c) => values.map((r) => r[c] ?? null));
        const types = COLUMNS.map((c) => (c === 'attempts' ? 'integer[]' : 'text[]'));
        const select = `SELECT * FROM unnest(${types.map((t) => `?::${t}`).join(', ')})`;
        const all = ns.every((n) => n.dedupeKey === null);
        const sql = `${PLAN_PER_CALL}INSERT INTO notifications (${COLUMNS.join(', ')}) ${select}`;
        if (all) {
          await tx.run(sql, columns as never);
          for (const n of ns) inserted.add(n.id);
        } else {
          const rows = await tx.all<{ id: string }>(
            `${sql} ON CONFLICT (tenant_id, dedupe_key) DO NOTHING RETURNING id`,
            columns as never,
          );
          for (const r of rows) inserted.add(r.id);
        }
        return;
      }
      for (let i = 0; i < ns.length; i += INSERT_CHUNK) {
        const chunk = ns.slice(i, i + INSERT_CHUNK);
        if (chunk.every((n) => n.dedupeKey === null)) {
          // Nothing to deduplicate (API sends): a plain insert, without the conflict check's speculative insertion.
          await tx.run(
            `${PLAN_PER_CALL}INSERT INTO notifications (${COLUMNS.join(', ')}) VALUES ${chunk.map(() => ROW_MARKS).join(', ')}`,
            chunk.flatMap(toRow),
          );
          for (const n of chunk) inserted.add(n.id);
          continue;
        }
        const rows = await tx.all<{ id: string }>(
          `${PLAN_PER_CALL}INSERT INTO notifications (${COLUMNS.join(', ')}) VALUES ${chunk.map(() => ROW_MARKS).join(', ')}
           ON CONFLICT (tenant_id, dedupe_key) DO NOTHING RETURNING id`,
          chunk.flatMap(toRow),
        );
        for (const r of rows) inserted.add(r.id);
      }
    });
    return ns.filter((n) => inserted.has(n.id));
  }

  async update(n: NotificationSnapshot): Promise<void> {
    const { changes } = await this.db.run(UPDATE, [...toRow(n).slice(2), n.tenantId, n.id]);
    if (changes === 0) throw DomainError.notFound('notification', n.id);
  }

  async updateOutcomes(tenantId: string, ns: readonly NotificationSnapshot[]): Promise<void> {
    // One statement per chunk: a worker sending a batch writes its outcomes in one round trip, not one per row. The
    // rows are reached by primary key whatever the statistics: the ids are also given as a set (`= ANY(ARRAY(...))`,
    // which Postgres plans as an index probe of unknown small size), and the tenant is compared as an expression
    // (`|| ''`) so its index cannot be chosen. Without this, Postgres joined a young table's every row to the list.
    for (let i = 0; i < ns.length; i += INSERT_CHUNK) {
      const chunk = ns.slice(i, i + INSERT_CHUNK);
      await this.db.run(
        `${PLAN_PER_CALL}WITH v (id, status, history, attempts, pmid, content, updated_at) AS (VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')})
         UPDATE notifications SET status = v.status, history = v.history, attempts = CAST(v.attempts AS INTEGER),
           provider_message_id = v.pmid, updated_at = v.updated_at,
           content = CASE WHEN v.content IS NULL THEN NULL ELSE notifications.content END
         FROM v WHERE notifications.id = v.id AND notifications.id ${this.db.dialect.name === 'postgres' ? '= ANY(ARRAY(SELECT id FROM v))' : 'IN (SELECT id FROM v)'}
           AND notifications.tenant_id || '' = ? AND notifications.status = 'queued'`,
        [
          ...chunk.flatMap((n) => [
            n.id,
            n.status,
            JSON.stringify(n.history),
            String(n.attempts),
            n.providerMessageId,
            n.content ? JSON.stringify(n.content) : null,
            n.updatedAt,
          ]),
          tenantId,
        ],
      );
    }
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

  async redactRecipient(tenantId: string, recipientId: string): Promise<number> {
    const { changes } = await this.db.run(
      'UPDATE notifications SET to_address = NULL, content = NULL WHERE tenant_id = ? AND recipient_id = ?',
      [tenantId, recipientId],
    );
    return changes;
  }
}

export class SqlNotificationTemplateRepository implements NotificationTemplateRepository {
  constructor(private readonly db: SqlDb) {}

  private static from(r: Row): TemplateOverride {
    return {
      key: r.key as string,
      subject: r.subject as string,
      html: r.html as string,
      text: r.text as string,
      updatedAt: r.updated_at as string,
    };
  }

  async get(tenantId: string, key: string): Promise<TemplateOverride | null> {
    const r = await this.db.first<Row>('SELECT * FROM notification_templates WHERE tenant_id = ? AND key = ?', [
      tenantId,
      key,
    ]);
    return r ? SqlNotificationTemplateRepository.from(r) : null;
  }

  async list(tenantId: string): Promise<TemplateOverride[]> {
    const rows = await this.db.all<Row>('SELECT * FROM notification_templates WHERE tenant_id = ? ORDER BY key', [
      tenantId,
    ]);
    return rows.map(SqlNotificationTemplateRepository.from);
  }

  async put(tenantId: string, t: TemplateOverride): Promise<void> {
    await this.db.run(
      `INSERT INTO notification_templates (tenant_id, key, subject, html, text, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id, key) DO UPDATE SET subject = excluded.subject, html = excluded.html,
       text = excluded.text, updated_at = excluded.updated_at`,
      [tenantId, t.key, t.subject, t.html, t.text, t.updatedAt],
    );
  }

  async delete(tenantId: string, key: string): Promise<boolean> {
    const { changes } = await this.db.run('DELETE FROM notification_templates WHERE tenant_id = ? AND key = ?', [
      tenantId,
      key,
    ]);
    return changes > 0;
  }
}

function settingsFrom(r: Row): StoredNotificationSettings {
  return {
    tenantId: r.tenant_id as string,
    triggers: json(r.triggers) ?? {},
    smtp: json(r.smtp),
    whatsapp: json(r.whatsapp),
    callbackSecretCiphertext: s(r.callback_secret),
    updatedAt: r.updated_at as string,
  };
}

export class SqlNotificationSettingsRepository implements NotificationSettingsRepository {
  constructor(private readonly db: SqlDb) {}

  async get(tenantId: string): Promise<StoredNotificationSettings | null> {
    const r = await this.db.first<Row>('SELECT * FROM notification_settings WHERE tenant_id = ?', [tenantId]);
    return r ? settingsFrom(r) : null;
  }

  async put(x: StoredNotificationSettings): Promise<void> {
    await this.db.run(
      `INSERT INTO notification_settings (tenant_id, triggers, smtp, whatsapp, phone_number_id, callback_secret, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id) DO UPDATE SET triggers = excluded.triggers, smtp = excluded.smtp,
       whatsapp = excluded.whatsapp, phone_number_id = excluded.phone_number_id,
       callback_secret = excluded.callback_secret, updated_at = excluded.updated_at`,
      [
        x.tenantId,
        JSON.stringify(x.triggers),
        x.smtp ? JSON.stringify(x.smtp) : null,
        x.whatsapp ? JSON.stringify(x.whatsapp) : null,
        x.whatsapp?.phoneNumberId ?? null,
        x.callbackSecretCiphertext,
        x.updatedAt,
      ],
    );
  }

  async findByPhoneNumberId(phoneNumberId: string): Promise<StoredNotificationSettings | null> {
    const r = await this.db.first<Row>('SELECT * FROM notification_settings WHERE phone_number_id = ? LIMIT 1', [
      phoneNumberId,
    ]);
    return r ? settingsFrom(r) : null;
  }

  async listWithSecrets(): Promise<StoredNotificationSettings[]> {
    const rows = await this.db.all<Row>(
      'SELECT * FROM notification_settings WHERE smtp IS NOT NULL OR whatsapp IS NOT NULL OR callback_secret IS NOT NULL ORDER BY tenant_id',
    );
    return rows.map(settingsFrom);
  }
}

export const notificationStorage: CapabilityStorage<NotificationRepos> = {
  migrations: [notificationsMigration],
  sql: (db, qb) => ({
    notifications: new SqlNotificationRepository(db, qb),
    notificationTemplates: new SqlNotificationTemplateRepository(db),
    notificationSettings: new SqlNotificationSettingsRepository(db),
  }),
  memory: notificationMemory,
};

import type {
  NotificationSettingsRepository,
  NotificationTemplateRepository,
  StoredNotificationSettings,
  TemplateOverride,
} from '@fundi/domain/notifications';
import type { SqlDb } from '../db/sql-db.js';
import { json, type Row, s } from './sql-notification-rows.js';

// The tenant's own notification templates and settings.

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

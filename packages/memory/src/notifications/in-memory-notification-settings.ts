import type { NotificationSettingsRepository, StoredNotificationSettings } from '@fundi/domain/notifications';
import type { MemoryStore } from '../common/memory-store.js';
import type { NotificationTables } from './notification-tables.js';

const clone = <T>(x: T): T => structuredClone(x);

/** A tenant's notification settings (its triggers and channel accounts). */
export class InMemoryNotificationSettingsRepository implements NotificationSettingsRepository {
  constructor(private readonly store: MemoryStore<NotificationTables>) {}
  private get rows() {
    return this.store.tables.notificationSettings;
  }
  async get(tenantId: string): Promise<StoredNotificationSettings | null> {
    return clone(this.rows.get(tenantId) ?? null);
  }
  async put(s: StoredNotificationSettings): Promise<void> {
    this.rows.set(s.tenantId, clone(s));
  }
  async findByPhoneNumberId(phoneNumberId: string): Promise<StoredNotificationSettings | null> {
    return clone([...this.rows.values()].find((s) => s.whatsapp?.phoneNumberId === phoneNumberId) ?? null);
  }
  async listWithSecrets(): Promise<StoredNotificationSettings[]> {
    return clone(
      [...this.rows.values()]
        .filter((s) => s.smtp || s.whatsapp || s.callbackSecretCiphertext)
        .sort((a, b) => (a.tenantId < b.tenantId ? -1 : 1)),
    );
  }
}

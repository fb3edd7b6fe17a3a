import type { NotificationPreferences, StaffPreferenceRepository } from '@fundi/domain/notifications';
import type { SqlDb } from '../db/sql-db.js';
import { chunks, marks } from '../db/sql-helpers.js';

/** Each staff user's notification preferences (`staff_notification_preferences`, JSON by tenant and user). */
export class SqlStaffPreferenceRepository implements StaffPreferenceRepository {
  constructor(private readonly db: SqlDb) {}

  async forUsers(tenantId: string, userIds: readonly string[]): Promise<Map<string, NotificationPreferences>> {
    const out = new Map<string, NotificationPreferences>();
    for (const part of chunks([...new Set(userIds)], 500)) {
      const rows = await this.db.all<{ user_id: string; preferences: string }>(
        `SELECT user_id, preferences FROM staff_notification_preferences WHERE tenant_id = ? AND user_id IN (${marks(part.length)})`,
        [tenantId, ...part],
      );
      for (const r of rows) out.set(r.user_id, JSON.parse(r.preferences) as NotificationPreferences);
    }
    return out;
  }

  async put(tenantId: string, userId: string, preferences: NotificationPreferences, at: string): Promise<void> {
    await this.db.run(
      `INSERT INTO staff_notification_preferences (tenant_id, user_id, preferences, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (tenant_id, user_id) DO UPDATE SET preferences = excluded.preferences, updated_at = excluded.updated_at`,
      [tenantId, userId, JSON.stringify(preferences), at],
    );
  }
}

import type {
  NotificationPreferences,
  NotificationSnapshot,
  StoredNotificationSettings,
  TemplateOverride,
} from '@fundi/domain/notifications';

/** The notification capability's tables in memory: notifications, template overrides, settings, staff preferences. */
export interface NotificationTables {
  notifications: Map<string, NotificationSnapshot>;
  notificationTemplates: Map<string, TemplateOverride & { tenantId: string }>;
  notificationSettings: Map<string, StoredNotificationSettings>;
  /** By `<tenant>\u0000<user>`. */
  staffPreferences: Map<string, { preferences: NotificationPreferences; updatedAt: string }>;
}

import type { NotificationSnapshot, StoredNotificationSettings, TemplateOverride } from '@fundi/domain/notifications';

/** The notification capability's tables in memory: notifications, template overrides and settings. */
export interface NotificationTables {
  notifications: Map<string, NotificationSnapshot>;
  notificationTemplates: Map<string, TemplateOverride & { tenantId: string }>;
  notificationSettings: Map<string, StoredNotificationSettings>;
}

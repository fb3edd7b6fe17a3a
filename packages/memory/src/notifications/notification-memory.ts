import type { NotificationRepos } from '@fundi/domain/notifications';
import type { MemoryPart } from '../common/memory-store.js';
import { InMemoryNotificationSettingsRepository } from './in-memory-notification-settings.js';
import { InMemoryNotificationRepository } from './in-memory-notifications.js';
import { InMemoryNotificationTemplateRepository } from './in-memory-template-overrides.js';
import { InMemoryStaffPreferenceRepository } from './in-memory-staff-preferences.js';
import type { NotificationTables } from './notification-tables.js';

export const notificationMemory: MemoryPart<NotificationRepos, NotificationTables> = {
  tables: () => ({
    notifications: new Map(),
    notificationTemplates: new Map(),
    notificationSettings: new Map(),
    staffPreferences: new Map(),
  }),
  repositories: (store) => ({
    notifications: new InMemoryNotificationRepository(store),
    notificationTemplates: new InMemoryNotificationTemplateRepository(store),
    notificationSettings: new InMemoryNotificationSettingsRepository(store),
    staffPreferences: new InMemoryStaffPreferenceRepository(store),
  }),
};

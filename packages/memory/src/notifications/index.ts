export * from './notification-tables.js';
export * from './in-memory-notifications.js';
export * from './in-memory-template-overrides.js';
export * from './in-memory-notification-settings.js';
export * from './in-memory-staff-preferences.js';
export * from './notification-memory.js';

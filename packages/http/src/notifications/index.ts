export * from './notification-routes.js';
export { notificationPages } from './notification-pages.js';
export * from './dashboard-deps.js';
export { learnerNotifications } from './notification-record-section.js';
export { bulkNotify, bulkNotifyPages } from './notification-bulk.js';
export { notificationPreferencesField } from './notification-preferences-field.js';

export * from './staff.js';
export * from './dashboard-session.js';
export * from './staff-notification-preferences.js';

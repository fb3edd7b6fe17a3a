export * from './staff.js';
export * from './dashboard-session.js';

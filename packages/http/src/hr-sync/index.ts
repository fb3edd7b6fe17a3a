export * from './hr-sync-routes.js';
export * from './hr-outbound-docs.js';
export { hrSyncPages } from './hr-sync-pages.js';
export * from './dashboard-deps.js';

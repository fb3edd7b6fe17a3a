export * from './hr-sync-routes.js';
export * from './hr-outbound-docs.js';
export { hrSyncPages } from '../dashboard/pages/hr-sync.js';
export * from './dashboard-deps.js';

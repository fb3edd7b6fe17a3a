export { auditPages } from '../dashboard/pages/audit.js';
export * from './audit-routes.js';
export * from './dashboard-deps.js';

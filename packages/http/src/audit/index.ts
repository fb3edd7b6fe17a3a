export { auditPages } from '../dashboard/pages/audit.js';
export * from './audit-routes.js';

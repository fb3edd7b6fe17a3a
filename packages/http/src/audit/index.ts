export { auditPages } from './audit-pages.js';
export * from './audit-routes.js';
export * from './dashboard-deps.js';
export { learnerHistory } from './audit-record-section.js';
export { enrolmentHistory } from './audit-enrolment-section.js';

export { statementPages } from './statement-pages.js';
export * from './statement-routes.js';
export * from './verify-page.js';
export * from './statement-events.js';
export * from './dashboard-deps.js';
export { enrolmentStatements } from './statement-card-section.js';
export { enrolmentStatementsCard, statementIds } from './statement-enrolment-section.js';

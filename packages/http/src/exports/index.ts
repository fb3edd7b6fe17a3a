export { exportPages } from './export-pages.js';
export * from './export-routes.js';
export * from './export-events.js';
export * from './dashboard-deps.js';
export { readinessSection } from './export-overview.js';
export { readinessPages } from './export-readiness.js';
export { regulatorPanel, regulatorSettingsPages } from './export-settings.js';
export { bulkExport } from './export-bulk.js';

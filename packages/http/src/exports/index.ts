export { exportPages } from '../dashboard/pages/exports.js';
export * from './export-routes.js';
export * from './export-events.js';
export * from './dashboard-deps.js';

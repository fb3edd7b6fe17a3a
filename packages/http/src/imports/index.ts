export * from './import-routes.js';
export * from './import-events.js';
export { importPages } from '../dashboard/pages/imports.js';
export * from './dashboard-deps.js';

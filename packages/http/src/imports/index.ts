export * from '../routes/import-routes.js';
export * from '../schemas/import-events.js';
export { importPages } from '../dashboard/pages/imports.js';
export * from './dashboard-deps.js';

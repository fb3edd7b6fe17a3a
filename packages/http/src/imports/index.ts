export * from './import-routes.js';
export * from './import-events.js';
export { importPages } from './import-pages.js';
export * from './dashboard-deps.js';

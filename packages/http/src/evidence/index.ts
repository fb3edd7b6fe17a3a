export * from './evidence-routes.js';
export * from './evidence-events.js';
export { evidencePages } from '../dashboard/pages/evidence.js';
export * from './dashboard-deps.js';

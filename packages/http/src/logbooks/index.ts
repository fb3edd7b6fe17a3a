export * from './logbook-routes.js';
export { logbookEvents } from './logbook-schemas.js';
export * from './dashboard-deps.js';
export { learnerHours } from './logbook-record-section.js';

export * from '../routes/logbook-routes.js';
export { logbookEvents } from '../schemas/logbook-schemas.js';
export * from './dashboard-deps.js';
export { learnerHours } from './logbook-record-section.js';

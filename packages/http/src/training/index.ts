export * from './programme-routes.js';
export * from './enrolment-routes.js';
export * from './assessment-routes.js';
export * from './training-events.js';
export { enrolmentPages } from '../dashboard/pages/enrolments.js';
export { enrolmentRecordPages } from '../dashboard/pages/enrolment.js';
export { programmePages } from '../dashboard/pages/programmes.js';
export * from './dashboard-deps.js';

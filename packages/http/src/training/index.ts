export * from '../routes/programme-routes.js';
export * from '../routes/enrolment-routes.js';
export * from '../routes/assessment-routes.js';
export * from '../schemas/training-events.js';
export { enrolmentPages } from '../dashboard/pages/enrolments.js';
export { enrolmentRecordPages } from '../dashboard/pages/enrolment.js';
export { programmePages } from '../dashboard/pages/programmes.js';
export * from './dashboard-deps.js';
export { learnerAssessments, learnerEnrolments } from './learner-record-sections.js';

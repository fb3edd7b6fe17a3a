export * from './learner-routes.js';
export * from './learner-events.js';
export { learnerEditPages } from '../dashboard/pages/learner-edit.js';
export { learnerPages } from '../dashboard/pages/learners.js';
export { learnerBulkPages } from '../dashboard/pages/learner-bulk.js';
export * from './dashboard-deps.js';
export { learnerTiles } from './learner-overview.js';
export type { LearnerRecordAt } from '../dashboard/pages/learner-record-slots.js';

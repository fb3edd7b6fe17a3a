export * from './learner-routes.js';
export * from './learner-events.js';
export { learnerEditPages } from './learner-edit.js';
export { learnerPages } from './learner-pages.js';
export { learnerBulkPages } from './learner-bulk.js';
export * from './dashboard-deps.js';
export { learnerTiles } from './learner-overview.js';
export type { LearnerRecordAt } from './learner-record-slots.js';

export * from '../routes/evidence-routes.js';
export * from '../schemas/evidence-events.js';
export { evidencePages } from '../dashboard/pages/evidence.js';
export * from './dashboard-deps.js';
export { learnerEvidence } from './evidence-record-section.js';
export { assessorQueue, evidenceActivity, evidenceBacklog, evidenceTiles } from './evidence-overview.js';
export { evidenceRetention, evidenceSettingsPages, evidenceStorageLimit } from './evidence-settings.js';
export { evidenceRecordPages, evidenceUploaded } from './evidence-record-actions.js';
export { enrolmentEvidence, evidenceIds } from './evidence-enrolment-section.js';

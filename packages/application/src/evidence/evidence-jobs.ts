import { jobType } from '../jobs/job-definition.js';
import { erasureJobType } from '../learners/learner-erasure.js';

/** The job that purges evidence deleted more than 30 days ago (recurring). */
export const PURGE_DELETED_EVIDENCE = jobType<Record<string, never>>('evidence.purge_deleted', 'long');
/** The job that purges evidence past its retention (recurring, daily). */
export const PURGE_RETAINED_EVIDENCE = jobType<Record<string, never>>('evidence.purge_retention', 'long');
/** The daily snapshot of every tenant's storage use (the dashboard's usage chart). */
export const SNAPSHOT_STORAGE_USE = jobType<Record<string, never>>('evidence.snapshot_storage_use', 'long');
/** The evidence's part of an erasure (queued by the `learner.erased` event): bytes and records. */
export const ERASE_LEARNER_EVIDENCE = erasureJobType('evidence.erase_learner');

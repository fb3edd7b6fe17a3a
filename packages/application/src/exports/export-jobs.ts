import { jobType } from '../jobs/job-definition.js';

/**
 * The job that writes an export's file. `origin` is `scheme://host` of the request that queued it: the base of
 * the download URL in `export.ready` when no public URL is configured (the worker has no request of its own).
 */
export const RUN_EXPORT = jobType<RunExport>('exports.run', 'long', { maxAttempts: 3, priority: 'interactive' });
export type RunExport = { tenantId: string; exportId: string; origin?: string };
/** The job that purges expired export files (recurring, hourly). */
export const PURGE_EXPORTS = jobType<Record<string, never>>('exports.purge_expired', 'long');

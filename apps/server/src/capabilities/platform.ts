import { platformStorage } from '@fundi/adapters';
import { CancelJob, ListJobs, RetryJob, ShowJob, jobRetention, type Ports } from '@fundi/application';
import type { PlatformRepos, TenantRepos } from '@fundi/domain';
import { capability } from './capability.js';
import { overviewPages } from '@fundi/http';

/**
 * The audit log, outbox and jobs every other capability writes through; its use cases are the operator's view of
 * the jobs (`fundi jobs ...`); it has no API routes of its own, and serves the dashboard's overview.
 */
export const platform = capability({
  name: 'platform',
  storage: platformStorage,
  declares: {
    scopes: { 'audit:read': ['admin', 'manager'] },
    // Audit entries, outbox events, jobs, and the alerts a capability raises for a tenant's staff.
    ids: ['aud', 'evt', 'job', 'alr'],
    // Finished jobs a week (pg-boss's archive); rate-limit windows once passed.
    retention: [
      { kind: 'jobs', days: 7, variable: 'FUNDI_RETAIN_JOBS_DAYS' },
      { kind: 'rateLimits', days: 0 },
    ],
  },
  useCases: (p: Ports<PlatformRepos & TenantRepos>) => ({
    listJobs: new ListJobs(p),
    showJob: new ShowJob(p),
    retryJob: new RetryJob(p),
    cancelJob: new CancelJob(p),
  }),
  dashboard: {
    nav: [{ href: '/dashboard', label: 'Overview', order: 0 }],
    pages: [overviewPages],
  },
  retention: jobRetention,
});

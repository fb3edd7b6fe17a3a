import { platformStorage } from '@fundi/adapters';
import { CancelJob, ListJobs, RetryJob, ShowJob, jobRetention, type Ports } from '@fundi/application';
import type { PlatformRepos, TenantRepos } from '@fundi/domain';
import { capability } from './capability.js';

/**
 * The audit log, outbox and jobs every other capability writes through; its use cases are the operator's view of
 * the jobs (`fundi jobs ...`), and it has no routes of its own.
 */
export const platform = capability({
  name: 'platform',
  storage: platformStorage,
  declares: {
    scopes: { 'audit:read': ['admin', 'manager'] },
    // Audit entries, outbox events, jobs, and the alerts a capability raises for a tenant's staff.
    ids: ['aud', 'evt', 'job', 'alr'],
  },
  useCases: (p: Ports<PlatformRepos & TenantRepos>) => ({
    listJobs: new ListJobs(p),
    showJob: new ShowJob(p),
    retryJob: new RetryJob(p),
    cancelJob: new CancelJob(p),
  }),
  retention: jobRetention,
});

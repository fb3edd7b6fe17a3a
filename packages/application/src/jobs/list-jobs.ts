import { DomainError, JOB_STATES, type JobState, type PlatformRepos, type TenantRepos } from '@fundi/domain';
import type { CoreDeps } from '../common/ports.js';
import { jobView, type JobView } from './job-view.js';

export interface ListJobsInput {
  state?: string;
  kind?: string;
  /** A tenant's slug. */
  tenant?: string;
  limit?: number;
}

/** The operator's list of jobs, newest first: by state, kind and tenant, at most `limit` (1-1000, default 50). */
export class ListJobs {
  constructor(private readonly d: CoreDeps<Pick<PlatformRepos, 'jobs'> & TenantRepos>) {}

  async execute(input: ListJobsInput): Promise<JobView[]> {
    const { state, kind, tenant, limit = 50 } = input;
    if (state !== undefined && !JOB_STATES.includes(state as JobState))
      throw DomainError.invalid('state', `must be one of ${JOB_STATES.join(', ')} (got "${state}")`);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      throw DomainError.invalid('limit', `must be an integer from 1 to 1000 (got "${limit}")`);
    let tenantId: string | undefined;
    if (tenant !== undefined) {
      const t = await this.d.repos.tenants.findBySlug(tenant);
      if (!t) throw DomainError.notFound('tenant', tenant);
      tenantId = t.id;
    }
    const now = this.d.clock.now();
    const jobs = await this.d.repos.jobs.list({
      ...(state ? { state: state as JobState } : {}),
      ...(kind !== undefined ? { kind } : {}),
      ...(tenantId !== undefined ? { tenantId } : {}),
      limit,
      now: now.toISOString(),
    });
    return jobs.map((j) => jobView(j, now));
  }
}

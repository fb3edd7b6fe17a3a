import { DomainError, type PlatformRepos } from '@fundi/domain';
import type { CoreDeps } from '../common/ports.js';
import { jobView, type JobView } from './job-view.js';

/** One job as the operator sees it, with its payload; not found when there is none (or it was pruned). */
export class ShowJob {
  constructor(private readonly d: CoreDeps<Pick<PlatformRepos, 'jobs'>>) {}

  async execute(id: string): Promise<JobView> {
    const job = await this.d.repos.jobs.findById(id);
    if (!job) throw DomainError.notFound('job', id);
    return jobView(job, this.d.clock.now(), { payload: true });
  }
}

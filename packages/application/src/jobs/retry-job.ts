import type { PlatformRepos } from '@fundi/domain';
import type { CoreDeps } from '../common/ports.js';
import type { JobView } from './job-view.js';
import { operatorAnswer } from './operator-answer.js';

/** Operator: a failed job (retrying later, or given up) becomes due now with its attempts reset. */
export class RetryJob {
  constructor(private readonly d: CoreDeps<Pick<PlatformRepos, 'jobs'>>) {}

  async execute(id: string): Promise<JobView> {
    const now = this.d.clock.now();
    return operatorAnswer(id, 'retry', await this.d.repos.jobs.retryNow(id, now.toISOString()), now);
  }
}

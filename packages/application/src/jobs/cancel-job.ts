import type { PlatformRepos } from '@fundi/domain';
import type { CoreDeps } from '../common/ports.js';
import type { JobView } from './job-view.js';
import { operatorAnswer } from './operator-answer.js';

/**
 * Operator: a queued or failed job is finished as cancelled and never runs again. A running job is refused: its
 * work may be half done, and stopping it is the worker's business (it finishes, fails, or is stopped with its worker).
 */
export class CancelJob {
  constructor(private readonly d: CoreDeps<Pick<PlatformRepos, 'jobs'>>) {}

  async execute(id: string): Promise<JobView> {
    const now = this.d.clock.now();
    return operatorAnswer(id, 'cancel', await this.d.repos.jobs.cancel(id, now.toISOString()), now);
  }
}

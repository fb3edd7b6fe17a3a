import type { PlatformRepos } from '@fundi/domain';
import type { CoreDeps } from '../common/ports.js';
import type { RetentionTask } from '../retention/retention-policy.js';

/** Finished jobs (done, given up or cancelled) past the retention; a job not finished is never pruned. */
export function jobRetention(d: Pick<CoreDeps<Pick<PlatformRepos, 'jobs'>>, 'repos'>): RetentionTask[] {
  return [{ kind: 'jobs', prune: (before, limit) => d.repos.jobs.pruneFinished(before.toISOString(), limit) }];
}

import type { HrSyncRepos } from '@fundi/domain/hr-sync';
import type { CoreDeps } from '../common/ports.js';
import type { RetentionTask } from '../retention/retention-policy.js';

declare module '../retention/retention-policy.js' {
  interface RetentionKinds {
    /** The HR inbound log. */
    hrLog: true;
  }
}

/** The HR inbound log. Outbound HR calls are webhook deliveries: their log is the webhook log's retention. */
export function hrLogRetention(d: Pick<CoreDeps<Pick<HrSyncRepos, 'hrEvents'>>, 'repos'>): RetentionTask[] {
  return [{ kind: 'hrLog', prune: (before, limit) => d.repos.hrEvents.pruneBefore(before.toISOString(), limit) }];
}

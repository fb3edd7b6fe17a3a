import type { StaffRepos } from '@fundi/domain/staff';
import type { CoreDeps } from '../common/ports.js';
import type { RetentionTask } from '../retention/retention-policy.js';

declare module '../retention/retention-policy.js' {
  interface RetentionKinds {
    /** Dashboard sessions, once expired. */
    dashboardSessions: true;
  }
}

/** Dashboard sessions once expired (signing out removes a session at once). */
export function sessionRetention(d: Pick<CoreDeps<Pick<StaffRepos, 'dashboardSessions'>>, 'repos'>): RetentionTask[] {
  return [
    {
      kind: 'dashboardSessions',
      prune: (before, limit) => d.repos.dashboardSessions.deleteExpired(before.toISOString(), limit),
    },
  ];
}

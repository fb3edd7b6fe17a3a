import type { NotificationRepos } from '@fundi/domain/notifications';
import type { CoreDeps } from '../common/ports.js';
import type { RetentionTask } from '../retention/retention-policy.js';

declare module '../retention/retention-policy.js' {
  interface RetentionKinds {
    /** Notifications that left Fundi. */
    notifications: true;
  }
}

/** Notifications that left Fundi (sent, delivered, read, bounced, failed or skipped), a year after their last change. */
export function notificationRetention(
  d: Pick<CoreDeps<Pick<NotificationRepos, 'notifications'>>, 'repos'>,
): RetentionTask[] {
  return [
    {
      kind: 'notifications',
      prune: (before, limit) => d.repos.notifications.pruneSettled(before.toISOString(), limit),
    },
  ];
}

import {
  FINAL_STATUS,
  advanceStatus,
  isFinalStatus,
  type NotificationSnapshot,
  type NotificationStatus,
} from '@fundi/domain/notifications';
import type { NotificationPorts } from './notification-ports.js';
import type { CreateNotifications } from './create-notifications.js';
import { hist } from './notification-drafts.js';
import { flagLearner, tellAdminsOfBounce } from './contact-bounce.js';

/**
 * Moves a notification by a reported status (provider callbacks, the open pixel): only forward, never out of a
 * final status, the history records it; true when it moved. A final failure of a learner's address flags the
 * learner and tells the admins.
 */
export class ReportNotificationStatus {
  constructor(
    private readonly d: NotificationPorts,
    private readonly create: CreateNotifications,
  ) {}

  async execute(
    n: NotificationSnapshot,
    status: NotificationStatus,
    at: string,
    detail: string | null,
  ): Promise<boolean> {
    if (n.status === 'skipped' || isFinalStatus(n.channel, n.status as NotificationStatus)) return false;
    const next = advanceStatus(n.channel, n.status as NotificationStatus, status);
    if (next === n.status) return false;
    let flagged: NotificationSnapshot | null = null;
    await this.d.uow.run(async (tx) => {
      const cur = await tx.notifications.findById(n.tenantId, n.id);
      if (!cur || cur.status === 'skipped') return;
      const moved = advanceStatus(cur.channel, cur.status as NotificationStatus, status);
      if (moved === cur.status) return;
      // After the learner's erasure (no address left) a report keeps its status, not the provider's words.
      await tx.notifications.update({
        ...cur,
        status: moved,
        history: [...cur.history, hist(moved, at, cur.to === null ? null : detail)],
        updatedAt: this.d.clock.now().toISOString(),
      });
      if (moved === FINAL_STATUS[cur.channel] && cur.recipientType === 'learner') {
        flagged = { ...cur, history: [...cur.history, hist(moved, at, detail)] };
        await flagLearner(tx, cur, this.d.clock.now());
      }
    });
    if (flagged) await tellAdminsOfBounce(this.d, this.create, flagged);
    return true;
  }
}

import {
  FINAL_STATUS,
  isAddressFailure,
  type NotificationSnapshot,
  type SendFailure,
} from '@fundi/domain/notifications';
import type { NotificationPorts } from './notification-ports.js';
import type { CreateNotifications } from './create-notifications.js';
import { deliver, openSettings } from './deliver-notification.js';
import { applyOutcome } from './send-outcome.js';
import { flagLearner, tellAdminsOfBounce } from './contact-bounce.js';

/** Sends in flight at once within one job. */
const SEND_CONCURRENCY = 32;

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Sends the queued notifications among `ids` and records every outcome in one transaction. A retryable failure
 * (soft bounce, throttling, an unreachable server) is queued again after a delay; a final one ends in `bounced`
 * or `failed`, and a hard bounce of a learner's address flags the learner and tells the admins. A job that runs
 * again after a crash sends only what is still queued.
 */
export class SendQueuedNotifications {
  constructor(
    private readonly d: NotificationPorts,
    private readonly create: CreateNotifications,
  ) {}

  async execute(tenantId: string, ids: readonly string[]): Promise<void> {
    // The notifications and the tenant's settings are read at once (two round trips in parallel, not one after the
    // other); the settings are read for every run, never kept, so a change of account is used by the next job.
    const [found, stored] = await Promise.all([
      this.d.repos.notifications.findMany(tenantId, ids),
      this.d.repos.notificationSettings.get(tenantId),
    ]);
    const due = found.filter((n) => n.status === 'queued' && n.content !== null && n.to !== null);
    if (due.length === 0) return;
    const settings = openSettings(this.d, stored);
    const outcomes = await mapLimit(due, SEND_CONCURRENCY, (n) => deliver(this.d, n, settings));
    const now = this.d.clock.now();
    if (outcomes.every((o) => o.ok)) {
      // Every one sent: the outcomes are the only write, one statement per few hundred notifications, each atomic
      // alone, so no unit of work (on Postgres no BEGIN and COMMIT around it). A crash between two of them leaves
      // the rest queued, sent again when the job runs again, as a crash before one transaction would.
      const sent = await Promise.all(due.map((n, i) => applyOutcome(this.d.repos, n, outcomes[i]!, now)));
      await this.d.repos.notifications.updateOutcomes(tenantId, sent);
      await this.forgetMailOfErased(tenantId, due);
      return;
    }
    const bounced: NotificationSnapshot[] = [];
    await this.d.uow.run(async (tx) => {
      // Outcomes are written only where the notification is still queued (the store checks), so nothing else that
      // moved it meanwhile is overwritten, without reading the rows again.
      const changed: NotificationSnapshot[] = [];
      for (const [i, cur] of due.entries()) {
        const next = await applyOutcome(tx, cur, outcomes[i]!, now);
        changed.push(next);
        if (next.status === FINAL_STATUS[next.channel] && !outcomes[i]!.ok) {
          const f = (outcomes[i] as { failure: SendFailure }).failure;
          if (isAddressFailure(f) && next.recipientType === 'learner') bounced.push(next);
        }
      }
      await tx.notifications.updateOutcomes(tenantId, changed);
      for (const n of bounced) await flagLearner(tx, n, now);
    });
    await this.forgetMailOfErased(tenantId, due);
    for (const n of bounced) await tellAdminsOfBounce(this.d, this.create, n);
  }

  /**
   * A learner erased while their mail was being sent: the erasure's own sweep of kept copies may have come before
   * the copy was written, so it is deleted here, once the outcome is recorded (docs/api.md, "Erasure").
   */
  private async forgetMailOfErased(tenantId: string, sent: readonly NotificationSnapshot[]): Promise<void> {
    const ids = sent.filter((n) => n.channel === 'email').map((n) => n.id);
    if (ids.length === 0) return;
    const redacted = await this.d.repos.notifications.redactedAmong(tenantId, ids);
    if (redacted.length) await this.d.channels.forgetMail(redacted);
  }
}

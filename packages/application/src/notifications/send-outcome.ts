import { afterSendFailure, type NotificationSnapshot, type SendFailure } from '@fundi/domain';
import { enqueueJob } from '../jobs/job-definition.js';
import type { NotificationRepoSet } from './notification-ports.js';
import { SEND_NOTIFICATIONS, hist } from './notification-drafts.js';

/** What one send came to: the provider's message id, or why it failed. */
export type Outcome = { ok: true; providerMessageId: string } | { ok: false; failure: SendFailure };

/**
 * A notification after one send: sent; queued again after a delay (a retryable failure, with its retry job); or
 * in its final failed status. An invitation or a password reset drops its content once sent or given up.
 */
export async function applyOutcome(
  tx: Pick<NotificationRepoSet, 'jobs'>,
  cur: NotificationSnapshot,
  o: Outcome,
  now: Date,
): Promise<NotificationSnapshot> {
  const at = now.toISOString();
  const attempts = cur.attempts + 1;
  // An invitation or a password reset holds a set-password link: once sent (or given up), the copy of it goes.
  const keep = cur.template === 'user_invited' || cur.template === 'password_reset' ? { content: null } : {};
  if (o.ok)
    return {
      ...cur,
      ...keep,
      attempts,
      status: 'sent',
      providerMessageId: o.providerMessageId,
      history: [...cur.history, hist('sent', at)],
      updatedAt: at,
    };
  const f = o.failure;
  const said = `${f.reason}${f.code ? ` (${f.code})` : ''}: ${f.detail}`;
  const after = afterSendFailure(cur.channel, attempts, f);
  if (after.retry) {
    const dueAt = new Date(now.getTime() + after.delayMs);
    await enqueueJob(
      tx.jobs,
      SEND_NOTIFICATIONS,
      { tenantId: cur.tenantId, ids: [cur.id] },
      { now, dueAt, key: `notify-retry:${cur.id}:${attempts}` },
    );
    return {
      ...cur,
      attempts,
      history: [
        ...cur.history,
        hist('queued', at, `attempt ${attempts} failed, ${said}; next try at ${dueAt.toISOString()}`),
      ],
      updatedAt: at,
    };
  }
  return {
    ...cur,
    ...keep,
    attempts,
    status: after.status,
    history: [...cur.history, hist(after.status, at, said)],
    updatedAt: at,
  };
}

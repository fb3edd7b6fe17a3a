import { afterSendFailure, type NotificationSnapshot, type SendFailure } from '@fundi/domain/notifications';
import { enqueueJob } from '../jobs/job-definition.js';
import type { NotificationRepoSet } from './notification-ports.js';
import { SEND_NOTIFICATIONS, hist } from './notification-drafts.js';

/** Templates whose content signs someone in (a set-password link, a portal link or code, a sign-off link). */
const SIGN_IN_TEMPLATES = new Set([
  'user_invited',
  'password_reset',
  'portal_sign_in',
  'portal_code',
  'logbook_sign_off',
]);

/** What one send came to: the provider's message id, or why it failed. */
export type Outcome = { ok: true; providerMessageId: string } | { ok: false; failure: SendFailure };

/**
 * A notification after one send: sent; queued again after a delay (a retryable failure, with its retry job); or
 * in its final failed status. A message that signs someone in drops its content once sent or given up.
 */
export async function applyOutcome(
  tx: Pick<NotificationRepoSet, 'jobs'>,
  cur: NotificationSnapshot,
  o: Outcome,
  now: Date,
): Promise<NotificationSnapshot> {
  const at = now.toISOString();
  const attempts = cur.attempts + 1;
  // A link or code that signs someone in is not kept once sent (or given up).
  const keep = SIGN_IN_TEMPLATES.has(cur.template) ? { content: null } : {};
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

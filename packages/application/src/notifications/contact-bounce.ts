import type { LearnerSnapshot } from '@fundi/domain/learners';
import type { NotificationSnapshot } from '@fundi/domain/notifications';
import { systemActor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { NotificationPorts, NotificationRepoSet } from './notification-ports.js';
import type { CreateNotifications } from './create-notifications.js';
import { dashboardUrl } from './dashboard-pages.js';
import { staffFor } from './recipients.js';
import type { TemplateVariable } from './template-variables.js';

/** A hard bounce: the learner is flagged for a contact update (visible on the learner), audited. */
export async function flagLearner(tx: NotificationRepoSet, n: NotificationSnapshot, now: Date): Promise<void> {
  const l = await tx.learners.findById(n.tenantId, n.recipientId);
  if (!l) return;
  const flagged: LearnerSnapshot = { ...l, contactUpdateNeeded: true, updatedAt: now.toISOString() };
  await tx.learners.update(flagged);
  await recordChange(tx, systemActor(n.tenantId), now, {
    action: 'learner.contact_update_flagged',
    resourceType: 'learner',
    resourceId: l.id,
    details: { notificationId: n.id, channel: n.channel },
  });
}

/** A learner's address refused for good: the tenant's admins are told by email (the `contact_bounced` template). */
export async function tellAdminsOfBounce(
  d: NotificationPorts,
  create: CreateNotifications,
  n: NotificationSnapshot,
): Promise<void> {
  const l = await d.repos.learners.findById(n.tenantId, n.recipientId);
  if (!l) return;
  const admins = await staffFor(d.repos, n.tenantId, ['admin'], 'contact_bounced');
  const summary = n.history.at(-1)?.detail ?? 'the address was refused';
  const values = new Map<TemplateVariable, string>([
    ['learner.firstName', l.firstName],
    ['learner.lastName', l.lastName],
    ['alert.summary', summary],
    ['actionUrl', dashboardUrl(d, `/learners/${l.id}`)],
  ]);
  await create.execute(
    n.tenantId,
    admins.map((recipient) => ({
      recipient,
      channel: 'email' as const,
      template: 'contact_bounced' as const,
      values,
      trigger: 'contact_bounced',
      dedupeKey: `contact_bounced:${n.id}:${recipient.id}`,
      createdBy: 'system',
      about: l.id,
    })),
    { strict: false },
  );
}

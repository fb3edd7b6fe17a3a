import {
  DomainError,
  type HrSyncRepos,
  type LearnerRepos,
  type NotificationRepos,
  type PlatformRepos,
  type WebhookRepos,
} from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { CoreDeps, StorageMaintenance } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { LEARNER_ERASED_EVENT, mentionsOf, scheduleScrub } from './learner-erasure.js';

/** What a learner event carries once its learner is erased: nothing that identifies the person. */
export const erasedLearnerData = (id: string) => ({ id, erased: true });

/**
 * POPIA erasure: the learner's personal data is removed irreversibly and the learner is gone for the API;
 * the anonymised row stays so enrolment and assessment facts still count, and the audit entry records it.
 * In the same transaction the learner's own events (learner.created / learner.updated, found by their subject)
 * are redacted in the outbox, so a pending delivery, a retry or a replay sends only `{id, erased: true}`, and
 * receivers' replies to them are cleared from the attempt log. Training events hold no personal data and stay.
 * Copies kept outside these rows (evidence, mail in the outbox folder, export and import files) are removed by the
 * capabilities that keep them, reacting to the internal `learner.erased` event written here.
 * The rules: docs/api.md, "Erasure".
 */
export class EraseLearner {
  constructor(
    private readonly deps: CoreDeps<
      LearnerRepos &
        PlatformRepos &
        Pick<WebhookRepos, 'webhookAttempts'> &
        Pick<HrSyncRepos, 'hrEvents'> &
        Pick<NotificationRepos, 'notifications'>
    >,
  ) {}

  async execute(actor: Actor, id: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.uow.run(async (tx) => {
      const learner = await tx.learners.findById(actor.tenantId, id);
      const erased = learner && (await tx.learners.erase(actor.tenantId, id, now.toISOString()));
      if (!erased) throw DomainError.notFound('learner', id);
      const events = await tx.outbox.redactSubject(actor.tenantId, id, erasedLearnerData(id));
      const responses = await tx.webhookAttempts.forgetResponses(actor.tenantId, events);
      // The HR inbound log keeps what HR sent about the employee: it goes too.
      const hrEvents = await tx.hrEvents.redactLearner(actor.tenantId, id);
      // Notifications to or about the learner (or, sent through the API to staff, naming them) keep their statuses
      // and times, not the address or what they said.
      const notifications = await tx.notifications.redactLearner(actor.tenantId, id, mentionsOf(learner));
      // The personal values of the learner's audit entries go; the entries, their facts and their chain stay.
      const auditValues = await tx.audit.forgetLearner(actor.tenantId, id);
      await recordChange(tx, actor, now, {
        action: 'learner.erased',
        resourceType: 'learner',
        resourceId: id,
        details: {
          redactedEvents: events.length,
          clearedResponses: responses,
          redactedHrEvents: hrEvents,
          redactedNotifications: notifications,
          erasedAuditValues: auditValues,
        },
        events: [{ type: LEARNER_ERASED_EVENT, data: { learnerId: id } }],
      });
      // The old versions of the rows may still sit in the database's files: a job scrubs them (committed with
      // the erasure, so it cannot be lost).
      await scheduleScrub(tx.jobs, now);
    });
  }
}

export class ScrubAfterErasure {
  constructor(private readonly deps: { maintenance: StorageMaintenance }) {}

  execute(): Promise<void> {
    return this.deps.maintenance.scrubAfterErasure();
  }
}

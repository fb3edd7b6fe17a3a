import { DomainError, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import type { OfferedHooks } from '../common/hooks.js';
import { recordChange } from '../common/record-change.js';
import { LEARNER_ERASED_EVENT, scheduleScrub } from './learner-erasure.js';

/** What a learner event carries once its learner is erased: nothing that identifies the person. */
export const erasedLearnerData = (id: string) => ({ id, erased: true });

/**
 * POPIA erasure: the learner's personal data is removed irreversibly and the learner is gone for the API;
 * the anonymised row stays so enrolment and assessment facts still count, and the audit entry records it.
 * In the same transaction the learner's own events (learner.created / learner.updated, found by their subject)
 * are redacted in the outbox, so a pending delivery, a retry or a replay sends only `{id, erased: true}`, and
 * the other capabilities' erasure steps run (`hooks.learnerErasure`: receivers' replies to those events, logs and
 * messages that name the learner), each counted in the audit entry. Training events hold no personal data and stay.
 * Copies kept outside these rows (evidence, mail in the outbox folder, export and import files) are removed by the
 * capabilities that keep them, reacting to the internal `learner.erased` event written here.
 * The rules: docs/api.md, "Erasure".
 */
export class EraseLearner {
  constructor(
    private readonly deps: CoreDeps<LearnerRepos & PlatformRepos> & { hooks: Pick<OfferedHooks, 'learnerErasure'> },
  ) {}

  async execute(actor: Actor, id: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.uow.run(async (tx) => {
      const learner = await tx.learners.findById(actor.tenantId, id);
      const erased = learner && (await tx.learners.erase(actor.tenantId, id, now.toISOString()));
      if (!erased) throw DomainError.notFound('learner', id);
      const events = await tx.outbox.redactSubject(actor.tenantId, id, erasedLearnerData(id));
      const subject = { tenantId: actor.tenantId, learnerId: id, learner, events };
      const counts: Record<string, number> = {};
      for (const step of this.deps.hooks.learnerErasure) counts[step.detail] = await step.erase(tx, subject);
      await recordChange(tx, actor, now, {
        action: 'learner.erased',
        resourceType: 'learner',
        resourceId: id,
        details: { redactedEvents: events.length, ...counts },
        events: [{ type: LEARNER_ERASED_EVENT, data: { learnerId: id } }],
      });
      // The old versions of the rows may still sit in the database's files: a job scrubs them (committed with
      // the erasure, so it cannot be lost).
      await scheduleScrub(tx.jobs, now);
    });
  }
}

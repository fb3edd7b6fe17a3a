import { DomainError, newId, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import { Assessment, type TrainingRepos } from '@fundi/domain/training';
import { actorRef, type Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { moderationView, type ModerationView } from './assessment-view.js';

export interface ModerationInput {
  decision?: unknown;
  notes?: unknown;
  moderatorEmail?: unknown;
  /** The older name of `moderatorEmail`, still accepted. */
  moderatorId?: unknown;
}

/**
 * A moderator's decision on an assessment. Both records are kept; an overturned result counts flipped for
 * progress. One moderation per assessment; the moderator may not be the assessor (403). The event names the
 * learner, enrolment and module like the assessment events, so a subscriber needs no read-back to file it.
 */
export class ModerateAssessment {
  constructor(private readonly deps: CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>) {}

  async execute(actor: Actor, assessmentId: string, input: ModerationInput): Promise<ModerationView> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const a = await tx.assessments.findById(actor.tenantId, assessmentId);
      if (!a) throw DomainError.notFound('assessment', assessmentId);
      const m = Assessment.moderate(a, input, { id: newId('mod'), moderatorKeyId: actor.id, now });
      await tx.assessments.addModeration(m);
      const view = moderationView(a, m);
      await recordChange(tx, actor, now, {
        action: 'moderation.completed',
        resourceType: 'assessment',
        resourceId: assessmentId,
        details: { moderationId: m.id, decision: m.decision },
        learnerId: a.learnerId,
        changes: { outcome: { from: a.outcome, to: view.effectiveOutcome } },
        events: [
          {
            type: 'moderation.completed',
            data: {
              assessmentId,
              learnerId: a.learnerId,
              enrolmentId: a.enrolmentId,
              moduleCode: a.moduleCode,
              decision: m.decision,
              notes: m.notes,
              moderatorEmail: m.moderatorEmail,
              moderatedBy: actorRef(actor.id, actor.name ?? null),
              effectiveOutcome: view.effectiveOutcome,
            },
          },
        ],
      });
      return view;
    });
  }
}

import { DomainError, newId, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import { Assessment, type AssessmentInput, type TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { assessmentView, type AssessmentView } from './assessment-view.js';
import { locateEnrolment } from './locate-enrolment.js';

export type RecordAssessmentInput = AssessmentInput & {
  learnerId?: unknown;
  moduleCode?: unknown;
  enrolmentId?: unknown;
};

/**
 * Records a module result. Results never change: a re-assessment is a new record. Emits both
 * `assessment.recorded` and `assessment.completed`, two names for the same moment (docs/api.md, "Assessments").
 */
export class RecordAssessment {
  constructor(private readonly deps: CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>) {}

  async execute(actor: Actor, input: RecordAssessmentInput): Promise<AssessmentView> {
    const now = this.deps.clock.now();
    const { learnerId, moduleCode, enrolmentId } = input;
    if (
      typeof learnerId !== 'string' ||
      typeof moduleCode !== 'string' ||
      (enrolmentId !== undefined && typeof enrolmentId !== 'string')
    ) {
      throw DomainError.invalid(
        typeof learnerId !== 'string' ? 'learnerId' : typeof moduleCode !== 'string' ? 'moduleCode' : 'enrolmentId',
        'must be a string',
      );
    }
    const learner = await this.deps.repos.learners.findById(actor.tenantId, learnerId);
    if (!learner) throw DomainError.invalid('learnerId', 'unknown learner', 'unknown_learner');
    const { enrolment, programme } = await locateEnrolment(
      this.deps.repos,
      actor.tenantId,
      learnerId,
      moduleCode,
      enrolmentId,
    );
    const assessment = Assessment.record(input, {
      id: newId('asm'),
      tenantId: actor.tenantId,
      learnerId,
      enrolmentId: enrolment.id,
      programmeId: programme.id,
      programmeCode: programme.code,
      moduleCode,
      recordedBy: actor.id,
      startDate: enrolment.startDate,
      now,
    });
    const { id: assessmentId, outcome, assessmentType, assessmentDate } = assessment;
    const data = {
      assessmentId,
      learnerId,
      enrolmentId: enrolment.id,
      moduleCode,
      outcome,
      assessmentType,
      assessmentDate,
    };
    await this.deps.uow.run(async (tx) => {
      await tx.assessments.insert(assessment);
      await recordChange(tx, actor, now, {
        action: 'assessment.recorded',
        resourceType: 'assessment',
        resourceId: assessmentId,
        details: { enrolmentId: enrolment.id, moduleCode },
        learnerId,
        changes: { outcome: { from: null, to: outcome } },
        events: [
          { type: 'assessment.recorded', data },
          { type: 'assessment.completed', data },
        ],
      });
    });
    return assessmentView(assessment);
  }
}

import { DomainError, newId, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import { Enrolment, type StatusChange, type TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { enrolmentView, type EnrolmentView } from './enrolment-view.js';

export interface EnrolInput {
  learnerId?: unknown;
  programmeCode?: unknown;
  startDate?: unknown;
  expectedEndDate?: unknown;
  fundingSource?: unknown;
}

/**
 * Enrols a learner in a programme. An unknown or erased learner and an unknown programme code are invalid
 * input; a retired programme or an open enrolment of the learner in the programme is a conflict
 * (docs/api.md, "Enrolments").
 */
export class EnrolLearner {
  constructor(private readonly deps: CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>) {}

  async execute(actor: Actor, input: EnrolInput): Promise<EnrolmentView> {
    const now = this.deps.clock.now();
    const { repos } = this.deps;
    const learner =
      typeof input.learnerId === 'string' ? await repos.learners.findById(actor.tenantId, input.learnerId) : null;
    const programme =
      typeof input.programmeCode === 'string'
        ? await repos.programmes.findByCode(actor.tenantId, input.programmeCode)
        : null;
    const unknown = [
      ...(learner ? [] : [{ field: 'learnerId', message: 'unknown learner' }]),
      ...(programme ? [] : [{ field: 'programmeCode', message: 'unknown programme' }]),
    ];
    if (!learner || !programme) throw DomainError.invalidMany(unknown);
    if (programme.status === 'retired')
      throw DomainError.conflict(
        'programme_retired',
        `Programme ${programme.code} is retired and takes no new enrolments`,
      );
    const id = newId('enr');
    const enrolment = Enrolment.enrol(input, {
      id,
      tenantId: actor.tenantId,
      learnerId: learner.id,
      programmeId: programme.id,
      programmeCode: programme.code,
      now,
    }).toSnapshot();
    const first: StatusChange = {
      id: newId('esh'),
      tenantId: actor.tenantId,
      enrolmentId: id,
      from: null,
      to: 'enrolled',
      reason: null,
      effectiveDate: enrolment.startDate,
      changedBy: actor.id,
      changedAt: now.toISOString(),
    };
    await this.deps.uow.run(async (tx) => {
      await tx.enrolments.insert(enrolment);
      await tx.enrolments.addStatusChange(first);
      await recordChange(tx, actor, now, {
        action: 'enrolment.created',
        resourceType: 'enrolment',
        resourceId: id,
        details: { learnerId: learner.id, programmeCode: programme.code },
        learnerId: learner.id,
      });
    });
    return enrolmentView(enrolment, programme, []);
  }
}

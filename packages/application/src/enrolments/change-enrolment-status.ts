import { DomainError, newId, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import {
  Enrolment,
  missingModules,
  parseEnrolmentStatus,
  progressOf,
  type EnrolmentSnapshot,
  type TrainingRepos,
} from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { ENROLMENT_COMPLETED_EVENT } from './enrolment-completed.js';
import { enrolmentViews, type EnrolmentView } from './enrolment-view.js';

export interface StatusInput {
  status?: unknown;
  reason?: unknown;
  effectiveDate?: unknown;
  /** With `completed` only: carried by the internal `enrolment.completed` event (docs/api.md, "HR sync"). */
  certificateNumber?: unknown;
}

function parseCertificateNumber(input: StatusInput, to: string): string | null {
  const v = input.certificateNumber;
  if (v === undefined || v === null) return null;
  if (to !== 'completed') throw DomainError.invalid('certificateNumber', 'is only accepted with status completed');
  if (typeof v !== 'string' || v.trim() === '' || v.length > 100)
    throw DomainError.invalid('certificateNumber', 'must be a non-empty string of at most 100 characters');
  return v.trim();
}

async function missingFor(tx: TrainingRepos, e: EnrolmentSnapshot): Promise<string[]> {
  const programme = await tx.programmes.findById(e.tenantId, e.programmeId);
  const assessments = await tx.assessments.summativeForEnrolments(e.tenantId, [e.id]);
  return missingModules(progressOf(programme?.modules ?? [], assessments));
}

/** `PATCH /enrolments/:id/status`: one enrolment move, its history row, audit entry and `enrolment.status_changed`. */
export class ChangeEnrolmentStatus {
  constructor(private readonly deps: CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>) {}

  async execute(actor: Actor, id: string, input: StatusInput): Promise<EnrolmentView> {
    const now = this.deps.clock.now();
    const to = parseEnrolmentStatus(input.status);
    const certificateNumber = parseCertificateNumber(input, to);
    const stored = await this.deps.uow.run(async (tx) => {
      const before = await tx.enrolments.findById(actor.tenantId, id);
      if (!before) throw DomainError.notFound('enrolment', id);
      const enrolment = Enrolment.fromSnapshot(before);
      const missing = to === 'completed' && before.status === 'in_progress' ? await missingFor(tx, before) : [];
      const move = enrolment.moveTo(to, input, { now, missingModules: missing });
      const after = enrolment.toSnapshot();
      // Completion also says what the public event does not (the certificate number), for those who react to it.
      const completed =
        move.to === 'completed'
          ? [
              {
                type: ENROLMENT_COMPLETED_EVENT,
                data: {
                  enrolmentId: id,
                  learnerId: after.learnerId,
                  programmeId: after.programmeId,
                  achievementDate: move.effectiveDate,
                  certificateNumber,
                },
                subjectId: after.learnerId,
              },
            ]
          : [];
      await tx.enrolments.updateStatus(after, move.from);
      await tx.enrolments.addStatusChange({
        id: newId('esh'),
        tenantId: actor.tenantId,
        enrolmentId: id,
        ...move,
        changedBy: actor.id,
        changedAt: now.toISOString(),
      });
      await recordChange(tx, actor, now, {
        action: 'enrolment.status_changed',
        resourceType: 'enrolment',
        resourceId: id,
        details: { from: move.from, to: move.to },
        learnerId: after.learnerId,
        changes: { status: { from: move.from, to: move.to } },
        events: [
          {
            type: 'enrolment.status_changed',
            data: { enrolmentId: id, learnerId: after.learnerId, programmeCode: after.programmeCode, ...move },
          },
          ...completed,
        ],
      });
      return after;
    });
    const [view] = await enrolmentViews(this.deps.repos, actor.tenantId, [stored]);
    return view!;
  }
}

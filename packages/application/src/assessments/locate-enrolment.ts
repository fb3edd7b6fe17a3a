import { DomainError } from '@fundi/domain';
import { Enrolment, Programme, type EnrolmentSnapshot, type ProgrammeSnapshot } from '@fundi/domain/training';
import type { TrainingRepos } from '@fundi/domain/training';

export interface Located {
  enrolment: EnrolmentSnapshot;
  programme: ProgrammeSnapshot;
}

const notEnrolled = (moduleCode: string) =>
  DomainError.invalid(
    'moduleCode',
    `${moduleCode} is not a module of a programme the learner has an open enrolment in`,
    'module_not_enrolled',
  );

/**
 * The enrolment an assessment belongs to: the given `enrolmentId`, which must be the learner's, open, and
 * contain the module; else the learner's most recent open enrolment whose programme has the module
 * (docs/api.md, "Assessments").
 */
export async function locateEnrolment(
  repos: TrainingRepos,
  tenantId: string,
  learnerId: string,
  moduleCode: string,
  enrolmentId?: string,
): Promise<Located> {
  if (enrolmentId !== undefined) {
    const e = await repos.enrolments.findById(tenantId, enrolmentId);
    if (!e || e.learnerId !== learnerId)
      throw DomainError.invalid('enrolmentId', 'is not an enrolment of this learner');
    if (!Enrolment.isOpen(e)) throw DomainError.invalid('enrolmentId', `the enrolment is ${e.status}, not open`);
    const p = await repos.programmes.findById(tenantId, e.programmeId);
    if (!p || !Programme.hasModule(p, moduleCode)) throw notEnrolled(moduleCode);
    return { enrolment: e, programme: p };
  }
  const open = await repos.enrolments.openForLearner(tenantId, learnerId);
  if (open.length === 0) throw notEnrolled(moduleCode);
  const programmes = new Map(
    (await repos.programmes.findByIds(tenantId, [...new Set(open.map((e) => e.programmeId))])).map((p) => [p.id, p]),
  );
  for (const e of open) {
    const p = programmes.get(e.programmeId);
    if (p && Programme.hasModule(p, moduleCode)) return { enrolment: e, programme: p };
  }
  throw notEnrolled(moduleCode);
}

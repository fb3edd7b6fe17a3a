import { DomainError } from '@fundi/domain';
import type { LearnerSnapshot } from '@fundi/domain/learners';
import type { StatementModule, StatementOutcome } from '@fundi/domain/statements';
import { progressOf, type AssessmentSnapshot, type EnrolmentSnapshot } from '@fundi/domain/training';
import type { StatementContent, StatementPorts } from './statement-ports.js';

/** The learner, the enrolment and every module's result that counts; 409 naming the modules without one. */
export async function gatherStatement(
  d: Pick<StatementPorts, 'repos'>,
  tenantId: string,
  learnerId: string,
  enrolmentId: string,
): Promise<{
  learner: LearnerSnapshot;
  enrolment: EnrolmentSnapshot;
  content: Omit<StatementContent, 'statementId' | 'issuedOn' | 'verificationCode' | 'verifyUrl'>;
}> {
  const r = d.repos;
  const learner = await r.learners.findById(tenantId, learnerId);
  if (!learner) throw DomainError.notFound('learner', learnerId);
  const enrolment = await r.enrolments.findById(tenantId, enrolmentId);
  if (!enrolment || enrolment.learnerId !== learnerId) throw DomainError.notFound('enrolment', enrolmentId);
  const [programme, assessments, tenant, regulator] = await Promise.all([
    r.programmes.findById(tenantId, enrolment.programmeId),
    r.assessments.summativeForEnrolments(tenantId, [enrolment.id]),
    r.tenants.findById(tenantId),
    r.regulatorSettings.get(tenantId),
  ]);
  if (!programme) throw DomainError.notFound('programme', enrolment.programmeId);
  const progress = progressOf(programme.modules, assessments);
  const missing = progress.modules.filter((m) => m.latestOutcome === null).map((m) => m.code);
  if (missing.length > 0)
    throw DomainError.conflict(
      'statement_results_missing',
      `Every module needs a result before a statement is issued; missing: ${missing.join(', ')}`,
      [],
      { missingModules: missing },
    );
  const byId = new Map<string, AssessmentSnapshot>(assessments.map((a) => [a.id, a]));
  const modules: StatementModule[] = progress.modules.map((m) => {
    const a = byId.get(m.assessmentId!)!;
    return {
      code: m.code,
      name: m.name,
      credits: programme.modules.find((x) => x.code === m.code)?.credits ?? null,
      outcome: m.latestOutcome!,
      achievedOn: a.assessmentDate,
      assessor: a.assessorId ?? a.recordedBy,
    };
  });
  const outcome: StatementOutcome =
    enrolment.status === 'completed'
      ? 'completed'
      : modules.every((m) => m.outcome === 'C')
        ? 'competent'
        : 'not_yet_competent';
  const credits = modules.some((m) => m.credits !== null) ? modules.reduce((n, m) => n + (m.credits ?? 0), 0) : null;
  return {
    learner,
    enrolment,
    content: {
      provider: { name: tenant?.name ?? '', sdpCode: regulator?.sdpCode ?? null },
      learner: {
        name: `${learner.firstName} ${learner.lastName}`,
        identifier: learner.idNumber ?? learner.alternateId ?? '',
        identifierType: learner.idNumber ? 'SA ID number' : `Alternative ID (${learner.alternateIdType ?? 'other'})`,
      },
      programme: {
        code: programme.code,
        name: programme.name,
        qualificationId: programme.qualificationId,
        nqfLevel: programme.nqfLevel,
        credits,
      },
      modules,
      outcome,
    },
  };
}

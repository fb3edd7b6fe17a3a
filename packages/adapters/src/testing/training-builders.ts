import type { TenantRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import { idNumberFor } from '@fundi/domain/testing';
import { Tenant, newId } from '@fundi/domain';
import { Learner } from '@fundi/domain/learners';
import type {
  AssessmentSnapshot,
  EnrolmentSnapshot,
  ModerationSnapshot,
  ProgrammeSnapshot,
} from '@fundi/domain/training';

const NOW = '2026-06-01T08:00:00.000Z';

export function aProgramme(tenantId: string, over: Partial<ProgrammeSnapshot> = {}): ProgrammeSnapshot {
  return {
    id: newId('prg'),
    tenantId,
    code: `P-${Math.random().toString(36).slice(2, 8)}`,
    name: 'Programme',
    type: 'skills_programme',
    qualificationId: '91761',
    nqfLevel: 4,
    status: 'active',
    retiredAt: null,
    createdAt: NOW,
    updatedAt: NOW,
    modules: [
      { code: 'M1', name: 'One', kind: 'knowledge', credits: 10 },
      { code: 'M2', name: 'Two', kind: 'practical', credits: null },
    ],
    ...over,
  };
}

export function anEnrolment(
  p: ProgrammeSnapshot,
  learnerId: string,
  over: Partial<EnrolmentSnapshot> = {},
): EnrolmentSnapshot {
  return {
    id: newId('enr'),
    tenantId: p.tenantId,
    learnerId,
    programmeId: p.id,
    programmeCode: p.code,
    startDate: '2026-01-10',
    expectedEndDate: null,
    fundingSource: null,
    status: 'enrolled',
    achievementDate: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

export function anAssessment(e: EnrolmentSnapshot, over: Partial<AssessmentSnapshot> = {}): AssessmentSnapshot {
  return {
    id: newId('asm'),
    tenantId: e.tenantId,
    learnerId: e.learnerId,
    enrolmentId: e.id,
    programmeId: e.programmeId,
    programmeCode: e.programmeCode,
    moduleCode: 'M1',
    assessmentType: 'summative',
    outcome: 'C',
    assessmentDate: '2026-03-01',
    assessorId: null,
    recordedBy: 'key_x',
    createdAt: NOW,
    moderation: null,
    ...over,
  };
}

export function aModeration(a: AssessmentSnapshot, over: Partial<ModerationSnapshot> = {}): ModerationSnapshot {
  return {
    id: newId('mod'),
    tenantId: a.tenantId,
    assessmentId: a.id,
    decision: 'overturned',
    notes: 'notes',
    moderatorId: 'key_m',
    moderatorEmail: null,
    moderatedAt: NOW,
    ...over,
  };
}

let counter = 0;

/** A tenant with `learners` learners, inserted through the repositories (the training tables reference both). */
export async function seedTenant(
  repos: TenantRepos & LearnerRepos,
  learners = 1,
): Promise<{ tenantId: string; learnerIds: string[] }> {
  const now = new Date(NOW);
  const tenant = Tenant.create(
    { slug: `t-${Date.now().toString(36)}-${counter++}`, name: 'Tenant', plan: 'pilot' },
    { id: newId('ten'), now },
  );
  await repos.tenants.insert(tenant);
  const learnerIds: string[] = [];
  for (let i = 0; i < learners; i++) {
    const l = Learner.register(
      { firstName: 'A', lastName: 'B', idNumber: idNumberFor(counter++) },
      { id: newId('lrn'), tenantId: tenant.id, now },
    ).toSnapshot();
    await repos.learners.insert(l);
    learnerIds.push(l.id);
  }
  return { tenantId: tenant.id, learnerIds };
}

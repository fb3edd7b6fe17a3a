import { newId } from '@fundi/domain';
import { idNumberFor } from '@fundi/domain/testing';
import { FixedClock } from '@fundi/testing';
import { anActor, fakeDeps } from './fakes.js';
import type { Actor } from '../common/actor.js';
import { RegisterLearner } from '../learners/register-learner.js';
import { CreateProgramme } from '../programmes/create-programme.js';
import { EnrolLearner } from '../enrolments/enrol-learner.js';
import { ChangeEnrolmentStatus } from '../enrolments/change-enrolment-status.js';
import { RecordAssessment } from '../assessments/record-assessment.js';

export interface World {
  deps: ReturnType<typeof fakeDeps>;
  clock: FixedClock;
  actor: Actor;
  tenantId: string;
  learner(n?: number): Promise<string>;
  programme(code: string, modules: string[]): Promise<void>;
  enrolment(learnerId: string, code: string, startDate?: string): Promise<string>;
  assess(learnerId: string, moduleCode: string, over?: Record<string, unknown>): Promise<string>;
  move(enrolmentId: string, status: string, extra?: Record<string, unknown>): Promise<unknown>;
}

export function aWorld(): World {
  const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));
  const deps = fakeDeps(clock);
  const tenantId = newId('ten');
  const actor = anActor(tenantId, { id: newId('key'), scopes: [] });
  const kinds = ['knowledge', 'practical', 'workplace'];
  return {
    deps,
    clock,
    actor,
    tenantId,
    learner: async (n = 0) =>
      (
        await new RegisterLearner(deps).execute(actor, {
          firstName: 'Thandi',
          lastName: 'Nkosi',
          idNumber: idNumberFor(n),
        })
      ).id,
    programme: async (code, modules) => {
      await new CreateProgramme(deps).execute(actor, {
        code,
        name: `Programme ${code}`,
        type: 'skills_programme',
        modules: modules.map((m, i) => ({ code: m, name: `Module ${m}`, kind: kinds[i % 3] })),
      });
    },
    enrolment: async (learnerId, code, startDate = '2026-01-10') =>
      (await new EnrolLearner(deps).execute(actor, { learnerId, programmeCode: code, startDate })).id,
    assess: async (learnerId, moduleCode, over = {}) =>
      (
        await new RecordAssessment(deps).execute(actor, {
          learnerId,
          moduleCode,
          assessmentType: 'summative',
          outcome: 'C',
          assessmentDate: '2026-03-01',
          ...over,
        })
      ).id,
    move: (enrolmentId, status, extra = {}) =>
      new ChangeEnrolmentStatus(deps).execute(actor, enrolmentId, { status, ...extra }),
  };
}

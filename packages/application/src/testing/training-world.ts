import { FixedClock, InMemoryUnitOfWork, MemoryStore, inMemoryRepositories } from '@fundi/adapters';
import { luhnCheckDigit, newId, type Scope } from '@fundi/domain';
import type { Actor } from '../shared/actor.js';
import type { CoreDeps } from '../shared/ports.js';
import { RegisterLearner } from '../learners/register-learner.js';
import { CreateProgramme } from '../programmes/create-programme.js';
import { EnrolLearner } from '../enrolments/enrol-learner.js';
import { ChangeEnrolmentStatus } from '../enrolments/change-enrolment-status.js';
import { RecordAssessment } from '../assessments/record-assessment.js';

// Application tests run the use cases over the in-memory fakes of @fundi/adapters (a test-only import: the
// adapters package depends on this one, so it cannot be a declared dependency without a cycle).
export interface World {
  deps: CoreDeps;
  clock: FixedClock;
  actor: Actor;
  tenantId: string;
  learner(n?: number): Promise<string>;
  programme(code: string, modules: string[]): Promise<void>;
  enrolment(learnerId: string, code: string, startDate?: string): Promise<string>;
  assess(learnerId: string, moduleCode: string, over?: Record<string, unknown>): Promise<string>;
  move(enrolmentId: string, status: string, extra?: Record<string, unknown>): Promise<unknown>;
}

/** A valid SA ID number per n (born 1990-01-01 onwards, one a day). */
export function idNumberFor(n: number): string {
  const d = new Date(Date.UTC(1990, 0, 1 + n));
  const first12 = `${d.toISOString().slice(2, 10).replace(/-/g, '')}580008`;
  return first12 + luhnCheckDigit(first12);
}

export function anActor(tenantId: string, id = newId('key'), scopes: Scope[] = []): Actor {
  return { tenantId, id, role: 'admin', scopes };
}

export function aWorld(): World {
  const store = new MemoryStore();
  const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));
  const deps: CoreDeps = { repos: inMemoryRepositories(store), uow: new InMemoryUnitOfWork(store), clock };
  const tenantId = newId('ten');
  const actor = anActor(tenantId);
  const kinds = ['knowledge', 'practical', 'workplace'];
  return {
    deps, clock, actor, tenantId,
    learner: async (n = 0) => (await new RegisterLearner(deps).execute(actor, { firstName: 'Thandi', lastName: 'Nkosi', idNumber: idNumberFor(n) })).id,
    programme: async (code, modules) => {
      await new CreateProgramme(deps).execute(actor, { code, name: `Programme ${code}`, type: 'skills_programme', modules: modules.map((m, i) => ({ code: m, name: `Module ${m}`, kind: kinds[i % 3] })) });
    },
    enrolment: async (learnerId, code, startDate = '2026-01-10') => (await new EnrolLearner(deps).execute(actor, { learnerId, programmeCode: code, startDate })).id,
    assess: async (learnerId, moduleCode, over = {}) =>
      (await new RecordAssessment(deps).execute(actor, { learnerId, moduleCode, assessmentType: 'summative', outcome: 'C', assessmentDate: '2026-03-01', ...over })).id,
    move: (enrolmentId, status, extra = {}) => new ChangeEnrolmentStatus(deps).execute(actor, enrolmentId, { status, ...extra }),
  };
}

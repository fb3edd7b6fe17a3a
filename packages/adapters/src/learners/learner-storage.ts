import type { LearnerRepos } from '@fundi/domain';
import { learnerMemory } from '@fundi/fakes';
import { SqlLearnerRepository } from '../repos/sql-learner-repository.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';

/** Learners (their table comes with the first migration, see platform-storage.ts). */
export const learnerStorage: CapabilityStorage<LearnerRepos> = {
  migrations: [],
  sql: (db, qb) => ({ learners: new SqlLearnerRepository(db, qb) }),
  memory: learnerMemory,
};

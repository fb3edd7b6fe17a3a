import type { LearnerRepos } from '@fundi/domain';
import { learnerMemory } from '@fundi/fakes';
import { SqlLearnerRepository } from '../repos/sql-learner-repository.js';
import { learnerAlternateIdMigration } from '../migrations/009-learner-alternate-id.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';

/** Learners (their table comes with the first migration, see platform-storage.ts; alternative IDs with 009). */
export const learnerStorage: CapabilityStorage<LearnerRepos> = {
  migrations: [learnerAlternateIdMigration],
  sql: (db, qb) => ({ learners: new SqlLearnerRepository(db, qb) }),
  memory: learnerMemory,
};

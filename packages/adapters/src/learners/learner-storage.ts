import type { LearnerRepos } from '@fundi/domain';
import { learnerMemory } from '@fundi/fakes';
import { SqlLearnerRepository } from '../repos/sql-learner-repository.js';
import { learnerAlternateIdMigration } from '../migrations/009-learner-alternate-id.js';
import { learnerContactPreferencesMigration } from '../migrations/014-learner-contact-preferences.js';
import { learnerLiveIndexMigration } from '../migrations/020-learner-live-index.js';
import { learnerEmployeeRefIndexMigration } from '../migrations/023-learner-employee-ref-index.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';

/**
 * Learners (their table comes with the first migration, see platform-storage.ts; alternative IDs with 009; contact
 * preferences with 014; the index of live learners that lists count in with 015).
 */
export const learnerStorage: CapabilityStorage<LearnerRepos> = {
  migrations: [
    learnerAlternateIdMigration,
    learnerContactPreferencesMigration,
    learnerLiveIndexMigration,
    learnerEmployeeRefIndexMigration,
  ],
  sql: (db, qb) => ({ learners: new SqlLearnerRepository(db, qb) }),
  memory: learnerMemory,
};

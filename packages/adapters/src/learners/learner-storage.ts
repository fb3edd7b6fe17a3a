import type { LearnerRepos } from '@fundi/domain';
import { learnerMemory } from '@fundi/memory/learners';
import { SqlLearnerRepository } from '../repos/sql-learner-repository.js';
import { learnerAlternateIdMigration } from '../migrations/009-learner-alternate-id.js';
import { learnerContactPreferencesMigration } from '../migrations/014-learner-contact-preferences.js';
import { learnerLiveIndexMigration } from '../migrations/020-learner-live-index.js';
import { learnerEmployeeRefIndexMigration } from '../migrations/023-learner-employee-ref-index.js';
import { learnerIndexTrimMigration } from '../migrations/025-learner-index-trim.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';

/**
 * Learners (their table comes with the first migration, see platform-storage.ts; alternative IDs with 009; contact
 * preferences with 014; the index of live learners that lists count in with 020; one employee-reference index with
 * 023; two index entries fewer per learner with 025).
 */
export const learnerStorage: CapabilityStorage<LearnerRepos> = {
  migrations: [
    learnerAlternateIdMigration,
    learnerContactPreferencesMigration,
    learnerLiveIndexMigration,
    learnerEmployeeRefIndexMigration,
    learnerIndexTrimMigration,
  ],
  sql: (db, qb) => ({ learners: new SqlLearnerRepository(db, qb) }),
  memory: learnerMemory,
  erasureTables: ['learners'],
};

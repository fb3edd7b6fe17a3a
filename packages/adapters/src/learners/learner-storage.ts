import type { LearnerRepos } from '@fundi/domain/learners';
import { learnerMemory } from '@fundi/memory/learners';
import { SqlLearnerRepository } from './sql-learner-repository.js';
import { learnerAlternateIdMigration } from './migrations/202611232340-alternate-id.js';
import { learnerContactPreferencesMigration } from './migrations/202611241850-contact-preferences.js';
import { learnerLiveIndexMigration } from './migrations/202611242305-live-index.js';
import { learnerEmployeeRefIndexMigration } from './migrations/202611250212-employee-ref-index.js';
import { learnerIndexTrimMigration } from './migrations/202611270411-index-trim.js';
import { learnerMobileIndexMigration } from './migrations/202611271246-mobile-index.js';
import { learnerSearchIndexMigration } from './migrations/202611280300-search-index.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';

/**
 * Learners (their table comes with the platform's first migration, `foundation`; then alternative IDs, contact
 * preferences, the index of live learners that lists count in, one employee-reference index, two index entries
 * fewer per learner, the index by mobile number, and the indexes of the list sorted by name and of its search).
 */
export const learnerStorage: CapabilityStorage<LearnerRepos> = {
  migrations: [
    learnerAlternateIdMigration,
    learnerContactPreferencesMigration,
    learnerLiveIndexMigration,
    learnerEmployeeRefIndexMigration,
    learnerIndexTrimMigration,
    learnerMobileIndexMigration,
    learnerSearchIndexMigration,
  ],
  sql: (db, qb) => ({ learners: new SqlLearnerRepository(db, qb) }),
  memory: learnerMemory,
  erasureTables: ['learners'],
};

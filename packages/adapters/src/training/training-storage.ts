import type { TrainingRepos } from '@fundi/domain/training';
import { trainingMemory } from '@fundi/memory/training';
import { training } from './migrations/202611211030-training.js';
import { SqlAssessmentRepository } from './sql-assessment-repository.js';
import { SqlEnrolmentRepository } from './sql-enrolment-repository.js';
import { SqlProgrammeRepository } from './sql-programme-repository.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';
import { moderationSamplesMigration } from './migrations/202611242231-moderation-samples.js';
import { enrolmentStatusIndex } from './migrations/202611271350-enrolment-status-index.js';
import { progressWatchIndex } from './migrations/202611271605-progress-watch-index.js';
import { learnerSortIndex } from './migrations/202611280020-learner-sort-index.js';
import { SqlModerationSampleRepository } from './sql-moderation-samples.js';

export const trainingStorage: CapabilityStorage<TrainingRepos> = {
  migrations: [training, moderationSamplesMigration, enrolmentStatusIndex, progressWatchIndex, learnerSortIndex],
  sql: (db, qb) => ({
    programmes: new SqlProgrammeRepository(db, qb),
    enrolments: new SqlEnrolmentRepository(db, qb),
    assessments: new SqlAssessmentRepository(db, qb),
    moderationSamples: new SqlModerationSampleRepository(db, qb),
  }),
  memory: trainingMemory,
};

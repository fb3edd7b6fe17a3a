import type { TrainingRepos } from '@fundi/domain/training';
import type { MemoryPart } from '../common/memory-store.js';
import { InMemoryAssessmentRepository, InMemoryModerationSampleRepository } from './in-memory-assessments.js';
import { InMemoryEnrolmentRepository } from './in-memory-enrolments.js';
import { InMemoryProgrammeRepository } from './in-memory-programmes.js';
import type { TrainingTables } from './training-tables.js';

export * from './in-memory-assessments.js';
export * from './in-memory-enrolments.js';
export * from './in-memory-programmes.js';
export type { TrainingTables } from './training-tables.js';

export const trainingMemory: MemoryPart<TrainingRepos, TrainingTables> = {
  tables: () => ({
    programmes: new Map(),
    enrolments: new Map(),
    enrolmentHistory: [],
    assessments: new Map(),
    moderations: new Map(),
    moderationSamples: new Map(),
  }),
  repositories: (store) => ({
    programmes: new InMemoryProgrammeRepository(store),
    enrolments: new InMemoryEnrolmentRepository(store),
    assessments: new InMemoryAssessmentRepository(store),
    moderationSamples: new InMemoryModerationSampleRepository(store),
  }),
};

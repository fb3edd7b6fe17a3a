import { trainingStorage } from '@fundi/adapters';
import { trainingUseCases } from '@fundi/application';
import { assessmentRoutes, enrolmentRoutes, programmeRoutes } from '@fundi/http';
import { capability } from './capability.js';

/** Programmes, enrolments, assessments and moderation. */
export const training = capability({
  name: 'training',
  storage: trainingStorage,
  useCases: trainingUseCases,
  routes: (u) => [...programmeRoutes(u), ...enrolmentRoutes(u), ...assessmentRoutes(u)],
});

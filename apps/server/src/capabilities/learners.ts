import { learnerStorage } from '@fundi/adapters';
import { learnerUseCases } from '@fundi/application';
import { learnerRoutes } from '@fundi/http';
import { capability } from './capability.js';

export const learners = capability({ name: 'learners', storage: learnerStorage, useCases: learnerUseCases, routes: learnerRoutes });

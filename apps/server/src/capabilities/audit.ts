import { auditStorage } from '@fundi/adapters';
import { auditUseCases } from '@fundi/application';
import { auditRoutes } from '@fundi/http';
import { capability } from './capability.js';

/** The audit trail read and verified: `/audit`, `/audit/verify`, `/learners/{id}/history` (docs/api.md). */
export const audit = capability({
  name: 'audit',
  storage: auditStorage,
  useCases: auditUseCases,
  routes: auditRoutes,
});

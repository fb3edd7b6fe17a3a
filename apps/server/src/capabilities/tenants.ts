import { tenantStorage } from '@fundi/adapters';
import { tenantUseCases } from '@fundi/application';
import { callerRoutes } from '@fundi/http';
import { capability } from './capability.js';

/** Tenants, API keys and authentication (managed by the CLI; the HTTP layer authenticates with it; `GET /me`). */
export const tenants = capability({
  name: 'tenants',
  storage: tenantStorage,
  declares: {
    scopes: { 'usage:read': ['admin', 'manager', 'viewer', 'integration'] },
    ids: ['ten', 'key'],
  },
  useCases: tenantUseCases,
  routes: callerRoutes,
});

import { tenantStorage } from '@fundi/adapters';
import { tenantUseCases } from '@fundi/application';
import { callerRoutes, apiKeyPages, settingsPages } from '@fundi/http';
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
  pageDeps: (u) => ({ tenants: u }),
  dashboard: {
    nav: [
      { href: '/dashboard/api-keys', label: 'API keys', order: 110, role: 'admin' },
      { href: '/dashboard/settings', label: 'Settings', order: 150 },
    ],
    pages: [apiKeyPages, settingsPages],
  },
});

import { staffStorage } from '@fundi/adapters/staff';
import { sessionRetention, staffUseCases } from '@fundi/application/staff';
import { userRoutes, userPages } from '@fundi/http/staff';
import { capability } from './capability.js';

/** Staff users: the `/users` directory, dashboard sign-in and sessions (docs/api.md, "Users"; docs/dashboard.md). */
export const staff = capability({
  name: 'staff',
  storage: staffStorage,
  declares: {
    scopes: { 'users:read': ['admin', 'manager', 'assessor', 'viewer', 'integration'], 'users:write': ['admin'] },
    ids: ['usr'],
    // Dashboard sessions once expired.
    retention: [{ kind: 'dashboardSessions', days: 0 }],
  },
  useCases: staffUseCases,
  routes: userRoutes,
  pageDeps: (u) => ({ staff: u }),
  dashboard: {
    nav: [{ href: '/dashboard/users', label: 'Staff users', order: 120, role: 'admin' }],
    pages: [userPages],
  },
  retention: sessionRetention,
});

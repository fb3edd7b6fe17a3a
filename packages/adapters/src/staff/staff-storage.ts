import type { StaffRepos } from '@fundi/domain/staff';
import { staffMemory } from '@fundi/memory/staff';
import type { CapabilityStorage } from '../storage/capability-storage.js';
import { staffSessions } from './migrations/202611232344-staff-sessions.js';
import { staffDirectory } from './migrations/202611241852-staff-directory.js';
import { SqlDashboardSessionRepository } from './sql-dashboard-sessions.js';
import { SqlStaffCredentialRepository } from './sql-staff.js';

/** Staff credentials and dashboard sessions (docs/dashboard.md, "Sign-in and sessions"). */
export const staffStorage: CapabilityStorage<StaffRepos> = {
  migrations: [staffSessions, staffDirectory],
  sql: (db) => ({
    staffCredentials: new SqlStaffCredentialRepository(db),
    dashboardSessions: new SqlDashboardSessionRepository(db),
  }),
  memory: staffMemory,
};

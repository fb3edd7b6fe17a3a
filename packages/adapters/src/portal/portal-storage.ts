import type { PortalRepos } from '@fundi/domain/portal';
import { portalMemory } from '@fundi/memory/portal';
import type { CapabilityStorage } from '../storage/capability-storage.js';
import { portalSignInMigration } from './migrations/202611271246-portal-sign-in.js';
import { portalUploadKeys } from './migrations/202611271950-upload-keys.js';
import { SqlPortalSessionRepository, SqlPortalSignInRepository } from './sql-portal.js';

/** The learner portal's sign-ins and sessions (docs/dashboard.md, "Learner portal"). */
export const portalStorage: CapabilityStorage<PortalRepos> = {
  migrations: [portalSignInMigration, portalUploadKeys],
  sql: (db) => ({
    portalSignIns: new SqlPortalSignInRepository(db),
    portalSessions: new SqlPortalSessionRepository(db),
  }),
  memory: portalMemory,
  erasureTables: ['portal_sign_ins', 'portal_sessions'],
};

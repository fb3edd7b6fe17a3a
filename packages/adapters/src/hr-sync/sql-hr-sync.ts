import type { HrSyncRepos } from '@fundi/domain/hr-sync';
import { hrSyncMemory } from '@fundi/memory/hr-sync';
import type { CapabilityStorage } from '../storage/capability-storage.js';
import { hrSyncMigration } from './migrations/202611232341-hr-sync.js';
import { SqlHrEventLog } from './sql-hr-event-log.js';
import { SqlHrSyncConfigRepository } from './sql-hr-sync-configs.js';

export { SqlHrEventLog, SqlHrSyncConfigRepository };

/** HR sync's configuration and inbound log (migration `hr-sync`). */
export const hrSyncStorage: CapabilityStorage<HrSyncRepos> = {
  migrations: [hrSyncMigration],
  sql: (db) => ({ hrSyncConfigs: new SqlHrSyncConfigRepository(db), hrEvents: new SqlHrEventLog(db) }),
  memory: hrSyncMemory,
  erasureTables: ['hr_events'],
};

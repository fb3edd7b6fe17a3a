import type { LogbookRepos } from '@fundi/domain/logbooks';
import { logbookMemory } from '@fundi/memory/logbooks';
import type { CapabilityStorage } from '../storage/capability-storage.js';
import { logbookEntriesMigration } from './migrations/202611271318-logbook-entries.js';
import { logbookTenantKey } from './migrations/202611271607-tenant-key.js';
import { logbookSubmissions } from './migrations/202611271945-submissions.js';
import { SqlLogbookEntryRepository } from './sql-logbooks.js';

/** Workplace logbook entries and their sign-offs (docs/api.md, "Logbooks"). */
export const logbookStorage: CapabilityStorage<LogbookRepos> = {
  migrations: [logbookEntriesMigration, logbookTenantKey, logbookSubmissions],
  sql: (db, qb) => ({ logbookEntries: new SqlLogbookEntryRepository(db, qb) }),
  memory: logbookMemory,
  erasureTables: ['logbook_entries'],
};

import type { StatementRepos } from '@fundi/domain/statements';
import { statementMemory } from '@fundi/memory/statements';
import type { CapabilityStorage } from '../storage/capability-storage.js';
import { statementsMigration } from './migrations/202611271306-statements.js';
import { statementTenantKey } from './migrations/202611271607-tenant-key.js';
import { SqlStatementRepository } from './sql-statements.js';

/** Statements of Results (docs/api.md, "Statements of Results"); erasure empties their `holder`. */
export const statementStorage: CapabilityStorage<StatementRepos> = {
  migrations: [statementsMigration, statementTenantKey],
  sql: (db) => ({ statements: new SqlStatementRepository(db) }),
  memory: statementMemory,
  erasureTables: ['statements'],
};

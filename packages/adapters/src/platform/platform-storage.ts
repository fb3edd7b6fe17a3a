import type { PlatformRepos } from '@fundi/domain';
import { platformMemory } from '@fundi/memory/platform';
import { foundation } from '../migrations/001-foundation.js';
import { webhooks } from '../migrations/003-webhooks.js';
import { SqlAuditLog, SqlOutbox } from '../repos/sql-audit-outbox.js';
import { SqlJobQueue } from '../jobs/sql-job-queue.js';
import { jobRuntime } from '../migrations/006-job-runtime.js';
import { outboxPending } from '../migrations/022-outbox-pending.js';
import { workSignalMigration } from '../migrations/024-work-signal.js';
import { jobPriority } from '../migrations/026-job-priority.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';

/**
 * The audit log, the outbox and the jobs table, which every capability writes through. Migrations 001 and 003
 * predate capability modules: 001 also creates the tenant and learner tables, 003 the webhook tables beside `jobs`.
 * 024 makes Postgres announce new events to fan out and new jobs to the workers; 026 gives jobs their priority,
 * claim time, tenant and cancellation.
 */
export const platformStorage: CapabilityStorage<PlatformRepos> = {
  migrations: [foundation, webhooks, jobRuntime, outboxPending, workSignalMigration, jobPriority],
  sql: (db, qb) => ({ audit: new SqlAuditLog(db), outbox: new SqlOutbox(db, qb), jobs: new SqlJobQueue(db) }),
  memory: platformMemory,
  // Events whose data is a learner's are redacted in place.
  erasureTables: ['outbox_events'],
};

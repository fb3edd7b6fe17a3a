import type { PlatformRepos } from '@fundi/domain';
import { platformMemory } from '@fundi/memory/platform';
import { foundation } from './migrations/202611211022-foundation.js';
import { jobsAndWebhooks } from './migrations/202611211031-jobs-and-webhooks.js';
import { eventSubjects } from './migrations/202611211117-event-subjects.js';
import { SqlAuditLog } from '../audit/sql-audit-log.js';
import { SqlOutbox } from './sql-outbox.js';
import { SqlJobQueue } from '../jobs/sql-job-queue.js';
import { jobRuntime } from './migrations/202611230746-job-runtime.js';
import { outboxPending } from './migrations/202611250144-outbox-pending.js';
import { workSignalMigration } from './migrations/202611251228-work-signal.js';
import { jobPriority } from './migrations/202611270920-job-priority.js';
import { auditChainMigration } from './migrations/202611271247-audit-chain.js';
import { auditPersonalTenantKey } from './migrations/202611271607-audit-personal-tenant-key.js';
import { auditHeadPrev } from './migrations/202611271615-audit-head-prev.js';
import { auditChainAtCommit } from './migrations/202611280845-audit-chain-at-commit.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';

/**
 * The audit log, the outbox and the jobs table, which every capability writes through. Its first two migrations
 * predate capability modules: `foundation` also creates the tenants' and learners' tables, `jobs-and-webhooks` the
 * webhooks' tables beside `jobs`. `work-signal` makes Postgres announce new events to fan out and new jobs to the
 * workers; `job-priority` gives jobs their priority, claim time, tenant and cancellation; `audit-chain` chains each tenant's
 * audit entries by hash and keeps personal values of entries apart (`audit_personal`, keyed by tenant since
 * `audit-personal-tenant-key`), removed by erasures; `audit-head-prev` keeps the previous hash on each chain head;
 * `audit-chain-at-commit` has Postgres chain each entry when its transaction commits.
 */
export const platformStorage: CapabilityStorage<PlatformRepos> = {
  migrations: [
    foundation,
    jobsAndWebhooks,
    eventSubjects,
    jobRuntime,
    outboxPending,
    workSignalMigration,
    jobPriority,
    auditChainMigration,
    auditPersonalTenantKey,
    auditHeadPrev,
    auditChainAtCommit,
  ],
  sql: (db, qb) => ({ audit: new SqlAuditLog(db), outbox: new SqlOutbox(db, qb), jobs: new SqlJobQueue(db) }),
  memory: platformMemory,
  // Events whose data is a learner's are redacted in place.
  erasureTables: ['outbox_events', 'audit_personal'],
};

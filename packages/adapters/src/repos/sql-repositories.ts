import type { Repositories, UnitOfWork } from '@fundi/application';
import type { SqlDb } from '../db/sql-db.js';
import { queryBuilder } from '../db/query-builder.js';
import { SqlLearnerRepository } from './sql-learner-repository.js';
import { SqlApiKeyRepository, SqlTenantRepository } from './sql-tenant-repositories.js';
import { SqlAuditLog, SqlOutbox } from './sql-audit-outbox.js';
import { SqlProgrammeRepository } from './sql-programme-repository.js';
import { SqlEnrolmentRepository } from './sql-enrolment-repository.js';
import { SqlAssessmentRepository } from './sql-assessment-repository.js';
import { SqlWebhookSubscriptionRepository } from './sql-webhook-subscriptions.js';
import { SqlWebhookDeliveryRepository } from './sql-webhook-deliveries.js';
import { SqlOutboxFeed, SqlTenantAlertLog, SqlWebhookAttemptLog } from './sql-webhook-log.js';
import { SqlJobQueue } from './sql-jobs.js';

/** Every repository over one `SqlDb` handle (the database at large, or one open transaction). */
export function sqlRepositories(db: SqlDb): Repositories {
  const qb = queryBuilder(db.dialect);
  return {
    tenants: new SqlTenantRepository(db),
    apiKeys: new SqlApiKeyRepository(db),
    learners: new SqlLearnerRepository(db, qb),
    programmes: new SqlProgrammeRepository(db, qb),
    enrolments: new SqlEnrolmentRepository(db, qb),
    assessments: new SqlAssessmentRepository(db, qb),
    audit: new SqlAuditLog(db),
    outbox: new SqlOutbox(db, qb),
    webhookSubscriptions: new SqlWebhookSubscriptionRepository(db, qb),
    webhookDeliveries: new SqlWebhookDeliveryRepository(db),
    webhookAttempts: new SqlWebhookAttemptLog(db),
    outboxFeed: new SqlOutboxFeed(db, qb),
    tenantAlerts: new SqlTenantAlertLog(db),
    jobs: new SqlJobQueue(db),
  };
}

export class SqlUnitOfWork implements UnitOfWork {
  constructor(private readonly db: SqlDb) {}
  run<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(sqlRepositories(tx)));
  }
}

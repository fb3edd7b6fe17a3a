import type { Repositories, UnitOfWork } from '@fundi/application';
import type { SqlDb } from '../db/sql-db.js';
import { queryBuilder } from '../db/query-builder.js';
import { SqlLearnerRepository } from './sql-learner-repository.js';
import { SqlApiKeyRepository, SqlTenantRepository } from './sql-tenant-repositories.js';
import { SqlAuditLog, SqlOutbox } from './sql-audit-outbox.js';
import { SqlProgrammeRepository } from './sql-programme-repository.js';
import { SqlEnrolmentRepository } from './sql-enrolment-repository.js';
import { SqlAssessmentRepository } from './sql-assessment-repository.js';

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
  };
}

export class SqlUnitOfWork implements UnitOfWork {
  constructor(private readonly db: SqlDb) {}
  run<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(sqlRepositories(tx)));
  }
}

import type {
  ApiKeyRepository, AuditLog, Clock, LearnerRepository, Outbox, SecretGenerator, TenantRepository,
} from '@fundi/domain';
import type { AssessmentRepository, EnrolmentRepository, ProgrammeRepository } from '@fundi/domain';
import type { JobQueue, OutboxFeed, TenantAlertLog, WebhookAttemptLog, WebhookDeliveryRepository, WebhookSubscriptionRepository } from '@fundi/domain';

/** Every repository, bound either to the database at large or to one open transaction. */
export interface Repositories {
  tenants: TenantRepository;
  apiKeys: ApiKeyRepository;
  learners: LearnerRepository;
  programmes: ProgrammeRepository;
  enrolments: EnrolmentRepository;
  assessments: AssessmentRepository;
  audit: AuditLog;
  outbox: Outbox;
  webhookSubscriptions: WebhookSubscriptionRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  webhookAttempts: WebhookAttemptLog;
  outboxFeed: OutboxFeed;
  tenantAlerts: TenantAlertLog;
  jobs: JobQueue;
}

/**
 * Port: runs `work` in one transaction. Everything written through the given repositories commits together or
 * not at all; a thrown error rolls back and is rethrown unchanged.
 */
export interface UnitOfWork {
  run<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
}

/** What most use cases need: reads outside a transaction, the unit of work for writes, and the clock. */
export interface CoreDeps {
  repos: Repositories;
  uow: UnitOfWork;
  clock: Clock;
}

export interface SecretDeps {
  secrets: SecretGenerator;
}

export interface RateWindow {
  seconds: number;
  limit: number;
}

export interface WindowCount {
  hits: number;
  /** Unix epoch seconds at which the window ends. */
  resetAt: number;
}

/**
 * Port: fixed-window request counters. `hit` counts one request against every window of `key` and returns the
 * counts including it, in the order of `windows`. Shared across processes where the adapter says so.
 */
export interface RateLimitStore {
  hit(key: string, windows: readonly RateWindow[], now: number): Promise<WindowCount[]>;
}

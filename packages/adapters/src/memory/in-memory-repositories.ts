import {
  DomainError, type ApiKeyRepository, type ApiKeySnapshot, type AuditEntry, type AuditLog, type DomainEvent,
  type Outbox, type TenantRepository, type TenantSnapshot,
} from '@fundi/domain';
import type { Repositories, UnitOfWork } from '@fundi/application';
import { MemoryStore } from './memory-store.js';
import { InMemoryLearnerRepository } from './in-memory-learners.js';
import { InMemoryAssessmentRepository, InMemoryEnrolmentRepository, InMemoryProgrammeRepository } from './in-memory-training.js';
import {
  InMemoryOutboxFeed, InMemoryTenantAlertLog, InMemoryWebhookAttemptLog, InMemoryWebhookDeliveryRepository, InMemoryWebhookSubscriptionRepository,
} from './in-memory-webhooks.js';
import { InMemoryJobQueue } from './in-memory-jobs.js';

const clone = <T>(x: T): T => structuredClone(x);

export class InMemoryTenantRepository implements TenantRepository {
  constructor(private readonly store: MemoryStore) {}
  async insert(t: TenantSnapshot) {
    if ([...this.store.tables.tenants.values()].some((x) => x.slug === t.slug)) {
      throw DomainError.conflict('duplicate_slug', `A tenant with slug ${t.slug} already exists`, [{ field: 'slug', message: 'is taken' }]);
    }
    this.store.tables.authEpoch++;
    this.store.tables.tenants.set(t.id, clone(t));
  }
  async update(t: TenantSnapshot) {
    if (!this.store.tables.tenants.has(t.id)) throw DomainError.notFound('tenant', t.slug);
    this.store.tables.authEpoch++;
    this.store.tables.tenants.set(t.id, clone(t));
  }
  async findBySlug(slug: string) {
    return clone([...this.store.tables.tenants.values()].find((t) => t.slug === slug) ?? null);
  }
  async findById(id: string) {
    return clone(this.store.tables.tenants.get(id) ?? null);
  }
  async list() {
    return clone([...this.store.tables.tenants.values()].sort((a, b) => a.slug.localeCompare(b.slug)));
  }
}

export class InMemoryApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly store: MemoryStore) {}
  async insert(k: ApiKeySnapshot) {
    this.store.tables.authEpoch++;
    this.store.tables.apiKeys.set(k.id, clone(k));
  }
  async authEpoch() {
    return this.store.tables.authEpoch;
  }
  async findByHash(hash: string) {
    return clone([...this.store.tables.apiKeys.values()].find((k) => k.hash === hash) ?? null);
  }
  async listByTenant(tenantId: string) {
    return clone([...this.store.tables.apiKeys.values()].filter((k) => k.tenantId === tenantId).sort((a, b) => (a.id < b.id ? 1 : -1)));
  }
  async revoke(tenantId: string, id: string, at: string) {
    const k = this.store.tables.apiKeys.get(id);
    if (!k || k.tenantId !== tenantId) return false;
    k.revokedAt ??= at;
    this.store.tables.authEpoch++;
    return true;
  }
}

export class InMemoryAuditLog implements AuditLog {
  constructor(private readonly store: MemoryStore) {}
  async record(e: AuditEntry) {
    this.store.tables.audit.push(clone(e));
  }
  async list(tenantId: string, f: { resourceId?: string; limit: number }) {
    return clone(this.store.tables.audit.filter((e) => e.tenantId === tenantId && (!f.resourceId || e.resourceId === f.resourceId))
      .sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, f.limit));
  }
}

export class InMemoryOutbox implements Outbox {
  constructor(private readonly store: MemoryStore) {}
  async add(e: DomainEvent) {
    this.store.tables.outbox.push(clone(e));
  }
  async list(tenantId: string, f: { since?: string; types?: readonly string[]; limit: number }) {
    return clone(this.store.tables.outbox.filter((e) => e.tenantId === tenantId && (!f.since || e.occurredAt >= f.since) && (!f.types?.length || f.types.includes(e.type)))
      .sort((a, b) => (a.id < b.id ? -1 : 1)).slice(0, f.limit));
  }
  async redactSubject(tenantId: string, subjectId: string, data: Record<string, unknown>) {
    const about = this.store.tables.outbox.filter((e) => e.tenantId === tenantId && e.subjectId === subjectId).sort((a, b) => (a.id < b.id ? -1 : 1));
    for (const e of about) e.data = clone(data);
    return about.map((e) => e.id);
  }
}

export function inMemoryRepositories(store: MemoryStore): Repositories {
  return {
    tenants: new InMemoryTenantRepository(store),
    apiKeys: new InMemoryApiKeyRepository(store),
    learners: new InMemoryLearnerRepository(store),
    programmes: new InMemoryProgrammeRepository(store),
    enrolments: new InMemoryEnrolmentRepository(store),
    assessments: new InMemoryAssessmentRepository(store),
    audit: new InMemoryAuditLog(store),
    outbox: new InMemoryOutbox(store),
    webhookSubscriptions: new InMemoryWebhookSubscriptionRepository(store),
    webhookDeliveries: new InMemoryWebhookDeliveryRepository(store),
    webhookAttempts: new InMemoryWebhookAttemptLog(store),
    outboxFeed: new InMemoryOutboxFeed(store),
    tenantAlerts: new InMemoryTenantAlertLog(store),
    jobs: new InMemoryJobQueue(store),
  };
}

/** One transaction at a time; a failure restores the tables as they were before it began. */
export class InMemoryUnitOfWork implements UnitOfWork {
  private tail: Promise<unknown> = Promise.resolve();
  constructor(private readonly store: MemoryStore) {}
  run<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    const next = this.tail.then(async () => {
      const before = this.store.snapshot();
      try {
        return await work(inMemoryRepositories(this.store));
      } catch (e) {
        this.store.restore(before);
        throw e;
      }
    });
    this.tail = next.catch(() => {});
    return next;
  }
}

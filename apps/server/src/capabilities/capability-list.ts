import {
  migrate,
  migrationsOf,
  resolve,
  storageFor,
  T,
  type CapabilityHandle,
  type DatabaseTarget,
  type FileStoreChoice,
  type Migration,
  type OpenStorage,
  type RepositoriesOf,
  type SqlDb,
} from '@fundi/adapters';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '@fundi/adapters/webhooks';
import type { UnitOfWork } from '@fundi/domain';
import type { Container } from 'inversify';
import { learners } from './learners.js';
import { platform } from './platform.js';
import { tenants } from './tenants.js';
import { training } from './training.js';
import { webhooks } from './webhooks.js';
import { evidence, type EvidenceSettings } from './evidence.js';
import { hrSync } from './hr-sync.js';
import { imports } from './imports.js';
import { staff } from './staff.js';
import { exports } from './exports.js';
import { notifications, type NotificationSettings } from './notifications.js';
import { audit } from './audit.js';
import { statements } from './statements.js';
import { portal } from './portal.js';
import { logbooks } from './logbooks.js';
import { notificationConfig } from './notification-config.js';

export interface CapabilitySettings {
  webhooks: { allowHttp: boolean; allowHosts: readonly string[] };
  evidence: EvidenceSettings;
  /** Default channels and the public base of links in mail (docs/api.md, "Notifications"). */
  notifications?: Partial<Pick<NotificationSettings, 'channels' | 'publicUrl'>>;
}

/**
 * Every capability of Fundi, in dependency order: one line each (docs/architecture.md, "Capabilities"). The
 * repositories, memory tables, container bindings, route list, job handlers and migrations are derived from it.
 */
export function capabilities(s: CapabilitySettings) {
  return [
    platform,
    tenants,
    learners,
    training,
    webhooks(s.webhooks),
    evidence(s.evidence),
    hrSync({ ...s.webhooks, publicUrl: s.evidence.publicUrl }),
    imports(s.evidence),
    // Export files share the evidence file store and master key (under their own keys, `t/<tenant>/exports/`).
    exports(s.evidence),
    staff,
    notifications({
      channels: s.notifications?.channels,
      publicUrl: s.notifications?.publicUrl || s.evidence.publicUrl,
      masterKey: s.evidence.masterKey,
      allowHosts: s.webhooks.allowHosts,
    }),
    audit,
    statements(s.evidence),
    portal,
    logbooks(s.evidence.masterKey),
  ] as const;
}

/** What the service tells a capability's settings reader: its data directory and the base of links it sends. */
export interface ServiceEnv {
  dataDir: string;
  linkBase: string;
}

/**
 * Each capability's settings, read from the environment once at start by its own reader (its variables, defaults and
 * rules; docs/architecture.md, "A capability's anatomy"); a bad value throws a `ConfigError` naming the variable.
 */
export function capabilityEnv(env: NodeJS.ProcessEnv, service: ServiceEnv) {
  return { notifications: notificationConfig(env, service.dataDir, service.linkBase) };
}
/** The settings `capabilityEnv` reads, by capability: part of the service's `Config`. */
export type CapabilityEnv = ReturnType<typeof capabilityEnv>;

/** The service's settings the capabilities are made with (the container's configuration). */
export interface CapabilityConfig {
  masterKey: Buffer;
  previousMasterKeys?: readonly Buffer[];
  webhooks?: WebhookSettings;
  fileStore?: FileStoreChoice;
  publicUrl?: string;
  notifications?: CapabilitySettings['notifications'];
}

/** The list made from the service's settings; without a configured store (tools, tests) files stay in memory. */
export function capabilitiesFor(config: CapabilityConfig): Capabilities {
  return capabilities({
    webhooks: config.webhooks ?? DEFAULT_WEBHOOK_SETTINGS,
    evidence: {
      fileStore: config.fileStore ?? { kind: 'memory' },
      masterKey: config.masterKey,
      previousMasterKeys: config.previousMasterKeys,
      publicUrl: config.publicUrl ?? '',
    },
    notifications: config.notifications,
  });
}

/** The capability list's type: each capability with its own use-case, ports and repository types. */
export type Capabilities = ReturnType<typeof capabilities>;
/** The storage parts of the capabilities: each one's `CapabilityStorage` of its repositories. */
type StorageParts = Capabilities[number]['storage'][];
/** Every repository of every capability. */
export type AppRepositories = RepositoriesOf<StorageParts>;

/** The storage parts of the capabilities (for migrations and test stores). */
export function storageOf(caps: Capabilities): StorageParts {
  return caps.map((c) => c.storage);
}

/** Every migration of every capability, in run order (by timestamp, then capability). */
export function migrationsFor(caps: Capabilities): Migration[] {
  return migrationsOf(storageOf(caps));
}

/**
 * The list made with settings nothing outside a container depends on: storage and declarations do not depend on
 * settings, so these capabilities serve migrations, storage and the derived lists outside a container.
 */
export const STORAGE_ONLY = () =>
  capabilities({
    webhooks: { allowHttp: false, allowHosts: [] },
    evidence: { fileStore: { kind: 'memory' }, masterKey: Buffer.alloc(32), publicUrl: '' },
  });

/** Applies every capability's pending migrations (`npm start`, the worker and the CLI run this first). */
export function migrateAll(target: DatabaseTarget): Promise<string[]> {
  return migrate(target, migrationsFor(STORAGE_ONLY()));
}

/** Every capability's repositories over a SQL handle, without a container (benchmarks, tools). */
export function appStorage(db: SqlDb): OpenStorage<AppRepositories> {
  return storageFor(storageOf(STORAGE_ONLY()), db);
}

/** The unit of work over every repository, typed. */
export function uowOf(c: Container): UnitOfWork<AppRepositories> {
  return resolve(c, T.UnitOfWork) as UnitOfWork<AppRepositories>;
}

/** Every repository, typed (reads outside a transaction). */
export function reposOf(c: Container): AppRepositories {
  return resolve(c, T.Repositories) as AppRepositories;
}

export { evidence, hrSync, learners, notifications, platform, portal, staff, tenants, training, webhooks };

type Named<N> = Extract<Capabilities[number], { name: N }>;
/** The use cases of the capability named `N`, as its module builds them. */
export type UseCasesNamed<N extends Capabilities[number]['name']> = ReturnType<Named<N>['useCases']>;

/** A handle for `useCasesOf`, typed from the capability list by name (for capabilities made per configuration). */
export function handleOf<N extends Capabilities[number]['name']>(name: N): CapabilityHandle<UseCasesNamed<N>> {
  return { name };
}

export const evidenceCapability = handleOf('evidence');
export const webhookCapability = handleOf('webhooks');
export const hrSyncCapability = handleOf('hrSync');
export const exportsCapability = handleOf('exports');
export const notificationsCapability = handleOf('notifications');
export const importsCapability = handleOf('imports');
export const statementsCapability = handleOf('statements');
export const auditCapability = handleOf('audit');
export const logbooksCapability = handleOf('logbooks');

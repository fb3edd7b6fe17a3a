import { refreshStatistics } from '../db/statistics.js';
import { RequestMeter, type Ports, type StorageMaintenance, type UnitOfWork } from '@fundi/application';
import type { Clock, SecretGenerator, TenantRepos } from '@fundi/domain';
import { Container, ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { openDatabase, type DatabaseTarget } from '../db/open-database.js';
import { storageFor } from '../storage/capability-storage.js';
import { SystemClock } from '../system/clocks.js';
import { accessLogThrough, createAccessLog, createLogger } from '../system/logger.js';
import { NodeSecretGenerator, TokenSigner } from '../system/node-secrets.js';
import { MemoryRateLimitStore, PostgresRateLimitStore } from '../system/rate-limit-stores.js';
import { AesGcmSecretBox } from '../system/secret-box.js';
import { bindCapabilities, type CapabilityWiring } from './capability-wiring.js';
import { declaredBy } from './declarations.js';
import { provide, provideValue, resolve, type Token } from './provide.js';
import { T, type AnyRepositories } from './tokens.js';
import { DEFAULT_WEBHOOK_SETTINGS, W, webhookInfraModule, type WebhookSettings } from './webhook-infra.js';

export type StorageChoice = DatabaseTarget | { kind: 'memory' };

export interface ContainerSettings {
  storage: StorageChoice;
  masterKey: Buffer;
  /** Master keys replaced by a rotation: they still open what they sealed (docs/architecture.md, "Files"). */
  previousMasterKeys?: readonly Buffer[];
  logLevel: string;
  clock?: Clock;
  /** A ready logger instead of one built from `logLevel` (tests capture output this way). */
  logger?: Logger;
  webhooks?: WebhookSettings;
}

/**
 * The one place adapter families are chosen (docs/architecture.md): storage for every capability's repositories,
 * the system ports, the shared `Ports`, and each capability's use cases. Apps call this with their capability list,
 * `R` being every repository of its storage parts (`RepositoriesOf`), and take what they need by token.
 */
export function buildContainer<R extends object>(
  s: ContainerSettings,
  caps: readonly CapabilityWiring<unknown, Ports<R>>[],
): Container {
  const c = new Container();
  const declared = declaredBy(caps);
  c.load(
    storageModule(s.storage, caps),
    systemModule(s),
    new ContainerModule(({ bind }) => {
      provide(
        bind,
        T.Ports,
        (repos, uow, clock, secrets, maintenance, meter) => ({
          ...portsFor(repos, uow, clock, secrets, s.masterKey, s.previousMasterKeys ?? [], maintenance),
          meter,
          access: declared.access,
          eventTypes: declared.eventTypes,
          hooks: declared.hooks,
        }),
        [T.Repositories, T.UnitOfWork, T.Clock, T.Secrets, T.Maintenance, T.Meter],
      );
      // The shared ports are over the repositories of these capabilities' storage parts (`storageModule`): `R`.
      bindCapabilities(bind, caps, T.Ports as Token<Ports<R>>);
    }),
  );
  c.load(webhookInfraModule({ storage: s.storage, webhooks: s.webhooks ?? DEFAULT_WEBHOOK_SETTINGS }));
  return c;
}

function portsFor(
  repos: AnyRepositories,
  uow: UnitOfWork<AnyRepositories>,
  clock: Clock,
  secrets: SecretGenerator,
  masterKey: Buffer,
  previousMasterKeys: readonly Buffer[],
  maintenance: StorageMaintenance,
): Omit<Ports<AnyRepositories>, 'meter' | 'access' | 'eventTypes' | 'hooks'> {
  const boxes = new Map<string, AesGcmSecretBox>();
  const secretBox = (purpose: string) => {
    let box = boxes.get(purpose);
    if (!box) boxes.set(purpose, (box = new AesGcmSecretBox(masterKey, purpose, previousMasterKeys)));
    return box;
  };
  return { repos, uow, clock, secrets, secretBox, maintenance };
}

/** The storage family, chosen once from configuration: SQLite, Postgres, or the in-memory store. */
function storageModule(choice: StorageChoice, caps: readonly CapabilityWiring[]): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const parts = caps.map((cap) => cap.storage);
    if (choice.kind === 'memory') {
      const mem = storageFor(parts, null);
      provideValue(bind, T.Repositories, mem.repos);
      provideValue(bind, T.UnitOfWork, mem.uow);
      provideValue(bind, T.RateLimits, new MemoryRateLimitStore());
      provideValue(bind, T.Meter, new RequestMeter((mem.repos as TenantRepos).apiKeyUsage));
      // Nothing of the in-memory store reaches a disk.
      provideValue(bind, T.Maintenance, { scrubAfterErasure: async () => {}, refreshStatistics: async () => {} });
      return;
    }
    provideValue(bind, T.SqlDb, openDatabase(choice));
    provide(bind, T.Repositories, (db) => storageFor(parts, db).repos, [T.SqlDb]);
    provide(bind, T.UnitOfWork, (db) => storageFor(parts, db).uow, [T.SqlDb]);
    provide(bind, T.Meter, (repos) => new RequestMeter((repos as TenantRepos).apiKeyUsage), [T.Repositories]);
    provide(
      bind,
      T.Maintenance,
      (db) => ({
        scrubAfterErasure: () => db.scrub(parts.flatMap((p) => p.erasureTables ?? [])),
        refreshStatistics: async (tables: readonly string[]) => void (await refreshStatistics(db, tables)),
      }),
      [T.SqlDb],
    );
    provide(
      bind,
      T.RateLimits,
      (db) => (choice.kind === 'postgres' ? new PostgresRateLimitStore(db) : new MemoryRateLimitStore()),
      [T.SqlDb],
    );
  });
}

function systemModule(opts: { masterKey: Buffer; logLevel: string; clock?: Clock; logger?: Logger }): ContainerModule {
  return new ContainerModule(({ bind }) => {
    provideValue(bind, T.Clock, opts.clock ?? new SystemClock());
    provideValue(bind, T.Secrets, new NodeSecretGenerator());
    provideValue(bind, T.Signer, new TokenSigner(opts.masterKey));
    provideValue(bind, T.Logger, opts.logger ?? createLogger(opts.logLevel));
    // An injected logger (tests) receives the access lines too, so they can be checked for personal data.
    provideValue(bind, T.AccessLogger, opts.logger ? accessLogThrough(opts.logger) : createAccessLog(opts.logLevel));
  });
}

/** Closes what the container opened (the work signal's connections, the database pool, the webhook transport). */
export async function closeContainer(c: Container): Promise<void> {
  // The last counted requests reach the database before it closes.
  if (c.isBound(T.Meter))
    await resolve(c, T.Meter)
      .flush()
      .catch(() => {});
  if (c.isBound(W.WorkSignal)) await resolve(c, W.WorkSignal)?.close();
  if (c.isBound(W.Transport)) await resolve(c, W.Transport).close();
  if (c.isBound(T.SqlDb)) await resolve(c, T.SqlDb).close();
}

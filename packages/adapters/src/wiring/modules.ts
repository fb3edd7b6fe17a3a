import {
  Authenticate, CreateApiKey, CreateTenant, EraseLearner, GetLearner, ListApiKeys, ListLearners, RegisterLearner,
  ReconfigureTenant, RevokeApiKey, UpdateLearner, type CoreDeps,
} from '@fundi/application';
import * as Training from '@fundi/application';
import type { Clock } from '@fundi/domain';
import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { openDatabase, type DatabaseTarget } from '../db/open-database.js';
import { SqlUnitOfWork, sqlRepositories } from '../repos/sql-repositories.js';
import { MemoryStore } from '../memory/memory-store.js';
import { InMemoryUnitOfWork, inMemoryRepositories } from '../memory/in-memory-repositories.js';
import { MemoryRateLimitStore, PostgresRateLimitStore } from '../system/rate-limit-stores.js';
import { NodeSecretGenerator, TokenSigner } from '../system/node-secrets.js';
import { SystemClock } from '../system/clocks.js';
import { createAccessLogger, createLogger } from '../system/logger.js';
import { provide, provideValue } from './provide.js';
import { T } from './tokens.js';

export type StorageChoice = DatabaseTarget | { kind: 'memory' };

/** The storage family, chosen once from configuration: SQLite, Postgres, or the in-memory fakes. */
export function storageModule(choice: StorageChoice): ContainerModule {
  return new ContainerModule(({ bind }) => {
    if (choice.kind === 'memory') {
      const store = new MemoryStore();
      provideValue(bind, T.Repositories, inMemoryRepositories(store));
      provideValue(bind, T.UnitOfWork, new InMemoryUnitOfWork(store));
      provideValue(bind, T.RateLimits, new MemoryRateLimitStore());
      return;
    }
    provideValue(bind, T.SqlDb, openDatabase(choice));
    provide(bind, T.Repositories, sqlRepositories, [T.SqlDb]);
    provide(bind, T.UnitOfWork, (db) => new SqlUnitOfWork(db), [T.SqlDb]);
    provide(bind, T.RateLimits, (db) => (choice.kind === 'postgres' ? new PostgresRateLimitStore(db) : new MemoryRateLimitStore()), [T.SqlDb]);
  });
}

export function systemModule(opts: { masterKey: Buffer; logLevel: string; clock?: Clock; logger?: Logger }): ContainerModule {
  return new ContainerModule(({ bind }) => {
    provideValue(bind, T.Clock, opts.clock ?? new SystemClock());
    provideValue(bind, T.Secrets, new NodeSecretGenerator());
    provideValue(bind, T.Signer, new TokenSigner(opts.masterKey));
    provideValue(bind, T.Logger, opts.logger ?? createLogger(opts.logLevel));
    // An injected logger (tests) receives the access lines too, so they can be checked for personal data.
    provideValue(bind, T.AccessLogger, opts.logger ?? createAccessLogger(opts.logLevel));
  });
}

/** Use cases: each one built from the ports it names. */
export function useCaseModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    provide(bind, T.CoreDeps, (repos, uow, clock): CoreDeps => ({ repos, uow, clock }), [T.Repositories, T.UnitOfWork, T.Clock]);
    provide(bind, T.RegisterLearner, (d) => new RegisterLearner(d), [T.CoreDeps]);
    provide(bind, T.GetLearner, (d) => new GetLearner(d), [T.CoreDeps]);
    provide(bind, T.ListLearners, (d) => new ListLearners(d), [T.CoreDeps]);
    provide(bind, T.UpdateLearner, (d) => new UpdateLearner(d), [T.CoreDeps]);
    provide(bind, T.EraseLearner, (d) => new EraseLearner(d), [T.CoreDeps]);
    provide(bind, T.CreateTenant, (d, secrets) => new CreateTenant({ ...d, secrets }), [T.CoreDeps, T.Secrets]);
    provide(bind, T.CreateApiKey, (d, secrets) => new CreateApiKey({ ...d, secrets }), [T.CoreDeps, T.Secrets]);
    provide(bind, T.ListApiKeys, (d) => new ListApiKeys(d), [T.CoreDeps]);
    provide(bind, T.RevokeApiKey, (d) => new RevokeApiKey(d), [T.CoreDeps]);
    provide(bind, T.Authenticate, (d, secrets) => new Authenticate({ ...d, secrets }), [T.CoreDeps, T.Secrets]);
    provide(bind, T.ReconfigureTenant, (d) => new ReconfigureTenant(d), [T.CoreDeps]);
    provide(bind, T.CreateProgramme, (d) => new Training.CreateProgramme(d), [T.CoreDeps]);
    provide(bind, T.GetProgramme, (d) => new Training.GetProgramme(d), [T.CoreDeps]);
    provide(bind, T.ListProgrammes, (d) => new Training.ListProgrammes(d), [T.CoreDeps]);
    provide(bind, T.UpdateProgramme, (d) => new Training.UpdateProgramme(d), [T.CoreDeps]);
    provide(bind, T.RetireProgramme, (d) => new Training.RetireProgramme(d), [T.CoreDeps]);
    provide(bind, T.DeleteProgramme, (d) => new Training.DeleteProgramme(d), [T.CoreDeps]);
    provide(bind, T.EnrolLearner, (d) => new Training.EnrolLearner(d), [T.CoreDeps]);
    provide(bind, T.GetEnrolment, (d) => new Training.GetEnrolment(d), [T.CoreDeps]);
    provide(bind, T.ListEnrolments, (d) => new Training.ListEnrolments(d), [T.CoreDeps]);
    provide(bind, T.ChangeEnrolmentStatus, (d) => new Training.ChangeEnrolmentStatus(d), [T.CoreDeps]);
    provide(bind, T.GetEnrolmentHistory, (d) => new Training.GetEnrolmentHistory(d), [T.CoreDeps]);
    provide(bind, T.RecordAssessment, (d) => new Training.RecordAssessment(d), [T.CoreDeps]);
    provide(bind, T.GetAssessment, (d) => new Training.GetAssessment(d), [T.CoreDeps]);
    provide(bind, T.ListAssessments, (d) => new Training.ListAssessments(d), [T.CoreDeps]);
    provide(bind, T.ModerateAssessment, (d) => new Training.ModerateAssessment(d), [T.CoreDeps]);
    provide(bind, T.GetModeration, (d) => new Training.GetModeration(d), [T.CoreDeps]);
    provide(bind, T.SampleForModeration, (d, secrets) => new Training.SampleForModeration({ ...d, secrets }), [T.CoreDeps, T.Secrets]);
  });
}

import type {
  AccessLog,
  Ports,
  RateLimitStore,
  RequestMeter,
  StorageMaintenance,
  UnitOfWork,
} from '@fundi/application';
import type { Clock, SecretGenerator } from '@fundi/domain';
import type { Logger } from 'pino';
import type { SqlDb } from '../db/sql-db.js';
import type { TokenSigner } from '../system/node-secrets.js';
import { token } from './provide.js';

/** Every repository of every capability, untyped here: apps know the capability list and type it (`RepositoriesOf`). */
export type AnyRepositories = object;

/** The container's shared service identifiers; each capability's use cases get a token of their own. */
export const T = {
  /** Absent for the in-memory store. */
  SqlDb: token<SqlDb>('SqlDb'),
  Repositories: token<AnyRepositories>('Repositories'),
  UnitOfWork: token<UnitOfWork<AnyRepositories>>('UnitOfWork'),
  Ports: token<Ports<AnyRepositories>>('Ports'),
  Clock: token<Clock>('Clock'),
  Secrets: token<SecretGenerator>('SecretGenerator'),
  Signer: token<TokenSigner>('TokenSigner'),
  RateLimits: token<RateLimitStore>('RateLimitStore'),
  Maintenance: token<StorageMaintenance>('StorageMaintenance'),
  Meter: token<RequestMeter>('RequestMeter'),
  Logger: token<Logger>('Logger'),
  AccessLogger: token<AccessLog>('AccessLogger'),
} as const;

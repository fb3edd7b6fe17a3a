import { isAbsolute, resolve } from 'node:path';
import type { DatabaseTarget, FileStoreChoice } from '@fundi/adapters';
import type { WebhookSettings } from '@fundi/adapters/webhooks';
import { fileStore } from './config-file-store.js';
import { DEFAULT_HEAP_GROWING_PERCENT } from './heap.js';
import { ConfigError, bool, int } from './config-values.js';
import { masterKey, previousMasterKeys } from './config-master-keys.js';
import { webhookAndWorker, type RetentionSettings, type WorkerConfig } from './config-worker.js';
import { database } from './config-database.js';
import { STORAGE_ONLY, capabilityEnv, type CapabilityEnv } from './capabilities/capability-list.js';
import { retentionPolicyOf } from './capabilities/declared.js';

export { ConfigError } from './config-values.js';
export type { RetentionSettings, WorkerConfig } from './config-worker.js';
export { DEFAULT_WORKER_POLL_MS } from './config-worker.js';

/** The service's configuration, and each capability's settings under its name (`capabilityEnv`). */
export interface Config extends CapabilityEnv {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseTarget;
  logLevel: string;
  /** 32 bytes; signs cursors (and later URLs) and wraps encryption keys. */
  masterKey: Buffer;
  /** Master keys replaced by a rotation, still accepted for reading until `fundi keys rewrap` has run. */
  previousMasterKeys: Buffer[];
  /** Within this many ms a cached key resolution is used without even checking the auth epoch (Postgres: 1000). */
  authCacheMs: number;
  anonymousLimits: { perMinute: number; perDay: number | null };
  /** Calls of other systems with their own secret (HR inbound), per client address. */
  inboundLimits: { perMinute: number; perDay: number | null };
  trustProxy: boolean;
  /** `npm start` runs the worker in the same process unless this is false. */
  embeddedWorker: boolean;
  /** Outbound webhooks: SSRF allow-list, plain http, per-attempt timeout. */
  webhooks: WebhookSettings;
  worker: WorkerConfig;
  /** Where evidence and export files go: FUNDI_FILE_STORE (local under the data dir, or azure). */
  fileStore: FileStoreChoice;
  /** FUNDI_PUBLIC_URL: the base of signed file URLs when behind a proxy; '' = the request's own origin. */
  publicUrl: string;
  /** FUNDI_HEAP_GROWING_PERCENT: how far V8's heap grows past its live data before a full collection (`tuneHeap`). */
  heapGrowingPercent: number;
  /**
   * FUNDI_SHUTDOWN_GRACE_MS: from SIGTERM or SIGINT to exit at most; in-flight requests, then the worker's work,
   * finish within it (docs/architecture.md, "Shutdown"). Below Kubernetes' 30 s before it kills the process.
   */
  shutdownGraceMs: number;
  /** FUNDI_BODY_IDLE_TIMEOUT_MS: a request body that sends nothing for this long is answered 408. */
  bodyIdleTimeoutMs: number;
}

/**
 * The retention periods the capabilities declare, each changed by its variable (days, 1 to 36,500), and the batch
 * size (100 to 5,000). The list is made without settings: the periods do not depend on them.
 */
function retention(env: NodeJS.ProcessEnv): RetentionSettings {
  const policy = retentionPolicyOf(STORAGE_ONLY(), (p) =>
    p.variable === undefined ? p.days : int(env, p.variable, p.days, 1, 36_500),
  );
  return { policy, batch: int(env, 'FUNDI_RETENTION_BATCH', 2000, 100, 5000) };
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function publicUrl(env: NodeJS.ProcessEnv): string {
  const raw = env.FUNDI_PUBLIC_URL;
  if (!raw) return '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('FUNDI_PUBLIC_URL', `must be an absolute http(s) URL (got "${raw}")`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash)
    throw new ConfigError('FUNDI_PUBLIC_URL', `must be an absolute http(s) URL without query (got "${raw}")`);
  return raw.replace(/\/+$/, '');
}

/** FUNDI_HEAP_GROWING_PERCENT (see `tuneHeap`); also read alone by processes that build no whole config. */
export function heapGrowingPercent(env: NodeJS.ProcessEnv = process.env): number {
  return int(env, 'FUNDI_HEAP_GROWING_PERCENT', DEFAULT_HEAP_GROWING_PERCENT, 0, 1000);
}

/** Reads the environment once; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDirRaw = env.FUNDI_DATA_DIR || './data';
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(dataDirRaw);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LEVELS.includes(logLevel))
    throw new ConfigError('LOG_LEVEL', `must be one of ${LEVELS.join(', ')} (got "${logLevel}")`);
  const db = database(env, dataDir);
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    dataDir,
    database: db,
    logLevel,
    masterKey: masterKey(env, dataDir),
    previousMasterKeys: previousMasterKeys(env),
    authCacheMs: int(env, 'FUNDI_AUTH_CACHE_MS', db.kind === 'postgres' ? 1000 : 0, 0, 600_000),
    anonymousLimits: { perMinute: int(env, 'FUNDI_ANON_RATE_PER_MINUTE', 120, 1, 1_000_000), perDay: null },
    inboundLimits: { perMinute: int(env, 'FUNDI_INBOUND_RATE_PER_MINUTE', 3000, 1, 1_000_000), perDay: null },
    trustProxy: bool(env, 'FUNDI_TRUST_PROXY', false),
    embeddedWorker: bool(env, 'FUNDI_EMBEDDED_WORKER', true),
    ...webhookAndWorker(env, retention(env)),
    fileStore: fileStore(env, dataDir),
    publicUrl: publicUrl(env),
    ...capabilityEnv(env, {
      dataDir,
      linkBase: publicUrl(env) || `http://localhost:${int(env, 'PORT', 3000, 0, 65535)}`,
    }),
    heapGrowingPercent: heapGrowingPercent(env),
    shutdownGraceMs: int(env, 'FUNDI_SHUTDOWN_GRACE_MS', 25_000, 100, 600_000),
    bodyIdleTimeoutMs: int(env, 'FUNDI_BODY_IDLE_TIMEOUT_MS', 60_000, 100, 3_600_000),
  };
}

/** For the apps' entry points: the configuration, or a message naming the bad variable and exit code 1. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
}

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';
import { defaultFileStore, type DatabaseTarget, type FileStoreChoice, type WebhookSettings } from '@fundi/adapters';
import { DEFAULT_RETENTION, type RetentionPolicy } from '@fundi/application';
import { DEFAULT_HEAP_GROWING_PERCENT } from './heap.js';
import { ConfigError, bool, hostList, int } from './config-values.js';

export { ConfigError } from './config-values.js';

export interface Config {
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
  /** Default mail and WhatsApp channels, and the base of links in mail (docs/api.md, "Notifications"). */
  notifications: NotificationConfig;
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

export interface NotificationConfig {
  channels: {
    /** FUNDI_SMTP_URL (`smtp://user:pass@host:587`, `smtps://...`); null: mail goes to `outboxFolder`. */
    smtpUrl: string | null;
    /** FUNDI_SMTP_FROM: the default sender. */
    smtpFrom: string;
    /** `<data dir>/outbox`: mail written as .eml files when there is no SMTP server. */
    outboxFolder: string;
    /** FUNDI_WHATSAPP_*: the operator's WhatsApp Cloud API account, or null. */
    whatsapp: {
      phoneNumberId: string;
      accessToken: string;
      appSecret: string;
      verifyToken: string;
      baseUrl: string;
      apiVersion: string;
    } | null;
  };
  /** FUNDI_PUBLIC_URL, or http://localhost:PORT. */
  publicUrl: string;
}

export interface WorkerConfig {
  /** FUNDI_WORKER_LEASE_MS: how long a claim holds; a killed worker's work is taken again after it. */
  leaseMs: number;
  /** FUNDI_WORKER_POLL_MS: idle polling interval. */
  pollMs: number;
  /** FUNDI_WORKER_CONCURRENCY: webhook requests in flight. */
  concurrency: number;
  /**
   * FUNDI_WORKER_GRACE_MS: on SIGTERM, time for in-flight work before its leases are given back; at most what is
   * left of FUNDI_SHUTDOWN_GRACE_MS.
   */
  graceMs: number;
  /** FUNDI_RETAIN_*: how long finished records are kept (docs/architecture.md, "Retention"); defaults when absent. */
  retention?: RetentionSettings;
}

export interface RetentionSettings {
  /** Days each kind is kept after it ended. */
  policy: RetentionPolicy;
  /** FUNDI_RETENTION_BATCH: rows per statement of the prune (each its own transaction). */
  batch: number;
}

/** The retention variables: days each (1 to 36,500), the batch size (100 to 5,000). */
const RETENTION_VARIABLES: Record<Exclude<keyof RetentionPolicy, 'dashboardSessions' | 'rateLimits'>, string> = {
  jobs: 'FUNDI_RETAIN_JOBS_DAYS',
  webhookEvents: 'FUNDI_RETAIN_EVENTS_DAYS',
  webhookAttempts: 'FUNDI_RETAIN_ATTEMPTS_DAYS',
  notifications: 'FUNDI_RETAIN_NOTIFICATIONS_DAYS',
  hrLog: 'FUNDI_RETAIN_HR_LOG_DAYS',
  imports: 'FUNDI_RETAIN_IMPORTS_DAYS',
};

function retention(env: NodeJS.ProcessEnv): RetentionSettings {
  const policy: RetentionPolicy = { ...DEFAULT_RETENTION };
  for (const [kind, name] of Object.entries(RETENTION_VARIABLES) as [keyof typeof RETENTION_VARIABLES, string][])
    policy[kind] = int(env, name, DEFAULT_RETENTION[kind], 1, 36_500);
  return { policy, batch: int(env, 'FUNDI_RETENTION_BATCH', 2000, 100, 5000) };
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function database(env: NodeJS.ProcessEnv, dataDir: string): DatabaseTarget {
  const url = env.DATABASE_URL;
  if (!url) return { kind: 'sqlite', filename: join(dataDir, 'fundi.sqlite') };
  if (/^postgres(ql)?:\/\//.test(url)) {
    try {
      new URL(url);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return { kind: 'postgres', url, poolMax: int(env, 'DATABASE_POOL_MAX', 10, 1, 200) };
  }
  if (url.startsWith('sqlite:')) return { kind: 'sqlite', filename: resolve(url.slice('sqlite:'.length)) };
  throw new ConfigError(
    'DATABASE_URL',
    'must start with postgres:// or postgresql:// (or sqlite:<file>); unset means SQLite in the data dir',
  );
}

/** FUNDI_PREVIOUS_MASTER_KEYS: comma-separated base64 keys of 32 bytes (docs/architecture.md, "Files"). */
function previousMasterKeys(env: NodeJS.ProcessEnv): Buffer[] {
  const raw = env.FUNDI_PREVIOUS_MASTER_KEYS?.trim();
  if (!raw) return [];
  return raw.split(',').map((part) => {
    const key = Buffer.from(part.trim(), 'base64');
    if (key.length !== 32)
      throw new ConfigError('FUNDI_PREVIOUS_MASTER_KEYS', 'must be comma-separated keys of 32 bytes, base64-encoded');
    return key;
  });
}

/** The master key from FUNDI_MASTER_KEY, or else from `<dataDir>/master.key`, created on first start. */
function masterKey(env: NodeJS.ProcessEnv, dataDir: string): Buffer {
  const raw = env.FUNDI_MASTER_KEY;
  if (raw) {
    const key = Buffer.from(raw, 'base64');
    if (key.length !== 32) throw new ConfigError('FUNDI_MASTER_KEY', 'must be 32 bytes, base64-encoded');
    return key;
  }
  const file = join(dataDir, 'master.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  }
  chmodSync(file, 0o600);
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

function webhookAndWorker(env: NodeJS.ProcessEnv): Pick<Config, 'webhooks' | 'worker'> {
  const timeoutMs = int(env, 'FUNDI_WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000);
  const leaseMs = int(env, 'FUNDI_WORKER_LEASE_MS', 30_000, 200, 3_600_000);
  if (leaseMs <= timeoutMs)
    throw new ConfigError(
      'FUNDI_WORKER_LEASE_MS',
      `must exceed FUNDI_WEBHOOK_TIMEOUT_MS (${timeoutMs}), or a slow delivery could be claimed twice`,
    );
  return {
    webhooks: {
      allowHttp: bool(env, 'FUNDI_WEBHOOK_ALLOW_HTTP', false),
      allowHosts: hostList(env, 'FUNDI_WEBHOOK_ALLOW_HOSTS'),
      timeoutMs,
    },
    worker: {
      leaseMs,
      pollMs: int(env, 'FUNDI_WORKER_POLL_MS', 200, 10, 60_000),
      concurrency: int(env, 'FUNDI_WORKER_CONCURRENCY', 64, 1, 1000),
      graceMs: int(env, 'FUNDI_WORKER_GRACE_MS', 10_000, 0, 600_000),
      retention: retention(env),
    },
  };
}

function fileStore(env: NodeJS.ProcessEnv, dataDir: string): FileStoreChoice {
  const kind = env.FUNDI_FILE_STORE || 'local';
  if (kind === 'local') return defaultFileStore(dataDir);
  if (kind !== 'azure') throw new ConfigError('FUNDI_FILE_STORE', `must be local or azure (got "${kind}")`);
  const connectionString = env.AZURE_STORAGE_CONNECTION_STRING ?? '';
  if (!/AccountName=|BlobEndpoint=|SharedAccessSignature=|UseDevelopmentStorage=true/i.test(connectionString)) {
    throw new ConfigError(
      'AZURE_STORAGE_CONNECTION_STRING',
      'must be an Azure Storage connection string when FUNDI_FILE_STORE=azure',
    );
  }
  const container = env.AZURE_STORAGE_CONTAINER || 'fundi-files';
  if (!/^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/.test(container)) {
    throw new ConfigError(
      'AZURE_STORAGE_CONTAINER',
      `must be 3-63 lowercase letters, digits and single hyphens (got "${container}")`,
    );
  }
  return { kind: 'azure', connectionString, container };
}

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
    ...webhookAndWorker(env),
    fileStore: fileStore(env, dataDir),
    publicUrl: publicUrl(env),
    notifications: notificationConfig(
      env,
      dataDir,
      publicUrl(env) || `http://localhost:${int(env, 'PORT', 3000, 0, 65535)}`,
    ),
    heapGrowingPercent: heapGrowingPercent(env),
    shutdownGraceMs: int(env, 'FUNDI_SHUTDOWN_GRACE_MS', 25_000, 100, 600_000),
    bodyIdleTimeoutMs: int(env, 'FUNDI_BODY_IDLE_TIMEOUT_MS', 60_000, 100, 3_600_000),
  };
}

function notificationConfig(env: NodeJS.ProcessEnv, dataDir: string, linkBase: string): NotificationConfig {
  const smtpUrl = env.FUNDI_SMTP_URL || null;
  if (smtpUrl && (!URL.canParse(smtpUrl) || !['smtp:', 'smtps:'].includes(new URL(smtpUrl).protocol)))
    throw new ConfigError('FUNDI_SMTP_URL', 'must be smtp://[user:pass@]host[:port] or smtps://...');
  const smtpFrom = env.FUNDI_SMTP_FROM || 'Fundi <no-reply@fundi.local>';
  if (!/^(?:[^<>]*<[^<>\s]+@[^<>\s]+>|[^<>\s]+@[^<>\s]+)$/.test(smtpFrom))
    throw new ConfigError('FUNDI_SMTP_FROM', 'must be an address or Name <address>');
  const phone = env.FUNDI_WHATSAPP_PHONE_NUMBER_ID;
  let whatsapp: NotificationConfig['channels']['whatsapp'] = null;
  if (phone) {
    const need = (name: string) => {
      const v = env[name];
      if (!v) throw new ConfigError(name, 'is required when FUNDI_WHATSAPP_PHONE_NUMBER_ID is set');
      return v;
    };
    const baseUrl = env.FUNDI_WHATSAPP_BASE_URL || 'https://graph.facebook.com';
    if (!URL.canParse(baseUrl)) throw new ConfigError('FUNDI_WHATSAPP_BASE_URL', 'must be an absolute URL');
    whatsapp = {
      phoneNumberId: phone,
      accessToken: need('FUNDI_WHATSAPP_ACCESS_TOKEN'),
      appSecret: need('FUNDI_WHATSAPP_APP_SECRET'),
      verifyToken: need('FUNDI_WHATSAPP_VERIFY_TOKEN'),
      baseUrl,
      apiVersion: env.FUNDI_WHATSAPP_API_VERSION || 'v21.0',
    };
  }
  return { channels: { smtpUrl, smtpFrom, outboxFolder: join(dataDir, 'outbox'), whatsapp }, publicUrl: linkBase };
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

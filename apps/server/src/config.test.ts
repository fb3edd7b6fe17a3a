import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DOCUMENTED_RETENTION } from '@fundi/testing';
import { ConfigError, loadConfig } from './config.js';

const dir = mkdtempSync(join(tmpdir(), 'fundi-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = Buffer.alloc(32, 3).toString('base64');
const base = { FUNDI_DATA_DIR: dir, FUNDI_MASTER_KEY: KEY };

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('defaults: port 3000, SQLite in the data dir, info logs, no auth cache, embedded worker', () => {
    const c = loadConfig({ ...base });
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: dir,
      logLevel: 'info',
      authCacheMs: 0,
      trustProxy: false,
      embeddedWorker: true,
      database: { kind: 'sqlite', filename: join(dir, 'fundi.sqlite') },
      anonymousLimits: { perMinute: 120, perDay: null },
      inboundLimits: { perMinute: 3000, perDay: null },
      heapGrowingPercent: 30,
      shutdownGraceMs: 25_000,
      bodyIdleTimeoutMs: 60_000,
    });
    expect(c.masterKey.equals(Buffer.alloc(32, 3))).toBe(true);
  });

  it('retention: documented defaults, each variable read, a bad value named', () => {
    expect(loadConfig({ ...base }).worker.retention).toEqual({
      policy: DOCUMENTED_RETENTION,
      batch: 2000,
    });
    const set = loadConfig({
      ...base,
      FUNDI_RETAIN_JOBS_DAYS: '14',
      FUNDI_RETAIN_EVENTS_DAYS: '30',
      FUNDI_RETAIN_ATTEMPTS_DAYS: '31',
      FUNDI_RETAIN_NOTIFICATIONS_DAYS: '730',
      FUNDI_RETAIN_HR_LOG_DAYS: '60',
      FUNDI_RETAIN_IMPORTS_DAYS: '45',
      FUNDI_RETENTION_BATCH: '5000',
    }).worker.retention;
    expect(set).toEqual({
      policy: {
        jobs: 14,
        webhookEvents: 30,
        webhookAttempts: 31,
        notifications: 730,
        hrLog: 60,
        imports: 45,
        dashboardSessions: 0,
        rateLimits: 0,
      },
      batch: 5000,
    });
    for (const [name, value] of [
      ['FUNDI_RETAIN_JOBS_DAYS', '0'],
      ['FUNDI_RETAIN_NOTIFICATIONS_DAYS', 'a year'],
      ['FUNDI_RETAIN_EVENTS_DAYS', '-1'],
      ['FUNDI_RETENTION_BATCH', '100000'],
    ] as const)
      expect(configError({ ...base, [name]: value }).variable).toBe(name);
  });

  it("a capability's settings are read by its own reader: the notifications' channels, defaults and rules", () => {
    expect(loadConfig({ ...base }).notifications).toEqual({
      channels: {
        smtpUrl: null,
        smtpFrom: 'Fundi <no-reply@fundi.local>',
        outboxFolder: join(dir, 'outbox'),
        whatsapp: null,
      },
      publicUrl: 'http://localhost:3000',
    });
    const set = loadConfig({
      ...base,
      FUNDI_PUBLIC_URL: 'https://fundi.example/',
      FUNDI_SMTP_URL: 'smtps://u:p@mail.example:465',
      FUNDI_SMTP_FROM: 'Training <training@example.org>',
      FUNDI_WHATSAPP_PHONE_NUMBER_ID: '123',
      FUNDI_WHATSAPP_ACCESS_TOKEN: 'token',
      FUNDI_WHATSAPP_APP_SECRET: 'secret',
      FUNDI_WHATSAPP_VERIFY_TOKEN: 'verify',
    }).notifications;
    expect(set).toEqual({
      channels: {
        smtpUrl: 'smtps://u:p@mail.example:465',
        smtpFrom: 'Training <training@example.org>',
        outboxFolder: join(dir, 'outbox'),
        whatsapp: {
          phoneNumberId: '123',
          accessToken: 'token',
          appSecret: 'secret',
          verifyToken: 'verify',
          baseUrl: 'https://graph.facebook.com',
          apiVersion: 'v21.0',
        },
      },
      publicUrl: 'https://fundi.example',
    });
    expect(configError({ ...base, FUNDI_SMTP_URL: 'http://mail' }).variable).toBe('FUNDI_SMTP_URL');
    expect(configError({ ...base, FUNDI_SMTP_FROM: 'nobody' }).variable).toBe('FUNDI_SMTP_FROM');
    expect(configError({ ...base, FUNDI_WHATSAPP_PHONE_NUMBER_ID: '1' }).variable).toBe('FUNDI_WHATSAPP_ACCESS_TOKEN');
  });

  it('FUNDI_DATA_DIR defaults to ./data, relative paths resolve from the working directory', () => {
    expect(loadConfig({ FUNDI_MASTER_KEY: KEY }).dataDir).toBe(resolve('./data'));
    expect(loadConfig({ FUNDI_MASTER_KEY: KEY, FUNDI_DATA_DIR: 'rel/dir' }).dataDir).toBe(resolve('rel/dir'));
  });

  it('reads every variable', () => {
    const c = loadConfig({
      ...base,
      PORT: '8080',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'debug',
      DATABASE_URL: 'postgres://u@db:5432/fundi',
      DATABASE_POOL_MAX: '20',
      FUNDI_AUTH_CACHE_MS: '500',
      FUNDI_ANON_RATE_PER_MINUTE: '30',
      FUNDI_TRUST_PROXY: 'true',
      FUNDI_EMBEDDED_WORKER: '0',
      FUNDI_HEAP_GROWING_PERCENT: '0',
      FUNDI_SHUTDOWN_GRACE_MS: '9000',
      FUNDI_BODY_IDLE_TIMEOUT_MS: '15000',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      logLevel: 'debug',
      authCacheMs: 500,
      anonymousLimits: { perMinute: 30 },
      trustProxy: true,
      embeddedWorker: false,
      heapGrowingPercent: 0,
      shutdownGraceMs: 9000,
      bodyIdleTimeoutMs: 15_000,
      database: { kind: 'postgres', url: 'postgres://u@db:5432/fundi', poolMax: 20 },
    });
  });

  it('Postgres defaults the auth cache to 1 s; sqlite: URLs name a file', () => {
    expect(loadConfig({ ...base, DATABASE_URL: 'postgresql://127.0.0.1/x' })).toMatchObject({
      authCacheMs: 1000,
      database: { kind: 'postgres', poolMax: 10 },
    });
    expect(loadConfig({ ...base, DATABASE_URL: 'sqlite:some/file.db' }).database).toEqual({
      kind: 'sqlite',
      filename: resolve('some/file.db'),
    });
  });

  it('creates a master key file (mode 600) on first start and reuses it', () => {
    const d = join(dir, 'fresh');
    const a = loadConfig({ FUNDI_DATA_DIR: d });
    expect(a.masterKey.length).toBe(32);
    expect(statSync(join(d, 'master.key')).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(join(d, 'master.key'), 'utf8'), 'base64').equals(a.masterKey)).toBe(true);
    expect(loadConfig({ FUNDI_DATA_DIR: d }).masterKey.equals(a.masterKey)).toBe(true);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'postgres://exa mple:bad:port/'],
    ['DATABASE_POOL_MAX', '0'],
    ['FUNDI_MASTER_KEY', 'dG9vIHNob3J0'],
    ['FUNDI_PREVIOUS_MASTER_KEYS', `${Buffer.alloc(32, 1).toString('base64')},dG9vIHNob3J0`],
    ['FUNDI_AUTH_CACHE_MS', 'soon'],
    ['FUNDI_ANON_RATE_PER_MINUTE', '0'],
    ['FUNDI_TRUST_PROXY', 'yes'],
    ['FUNDI_EMBEDDED_WORKER', 'maybe'],
    ['FUNDI_SHUTDOWN_GRACE_MS', '0'],
    ['FUNDI_SHUTDOWN_GRACE_MS', '25s'],
    ['FUNDI_BODY_IDLE_TIMEOUT_MS', '10'],
    ['FUNDI_BODY_IDLE_TIMEOUT_MS', '-5'],
  ])('%s=%s throws a ConfigError naming the variable', (name, value) => {
    const env: NodeJS.ProcessEnv = { ...base, [name]: value };
    if (name === 'DATABASE_POOL_MAX') env.DATABASE_URL = 'postgres://127.0.0.1/x';
    const e = configError(env);
    expect(e.variable).toBe(name);
    expect(e.message).toContain(name);
  });
});

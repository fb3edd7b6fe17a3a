import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { T, closeContainer, resolve } from '@fundi/adapters';
import { POSTGRES_TEST_URL, postgresAvailable } from '@fundi/adapters/testing';
import { containerFor, httpApp, loadConfig } from '@fundi/server';
import { cliInProcess, npmRunFundi, type Run } from './testing/cli-runs.js';

const pgUp = await postgresAvailable();

/** Exactly as the acceptance checks drive it (builds if needed: ~2-3 s per call, so used sparingly). */
const fundi = (env: Record<string, string>, ...args: string[]) => npmRunFundi(env, args);
/** The same CLI in this process (what the binary's main runs), for every other case. */
const cli = (env: Record<string, string>, ...args: string[]) => cliInProcess(env, args);

/** What `keys create` and `tenants create` print for a key (docs/api.md). */
type KeyJson = { id: string; key: string; role: string; scopes: string[] };
type TenantJson = { tenant: Record<string, unknown>; apiKey: KeyJson; limits?: Record<string, unknown> };
type KeyListJson = { id: string; lastUsedAt: string }[];

/** The CLI's JSON output, read as the shape its command documents. */
function json<T = unknown>(r: Run): T {
  expect(r.code, r.stderr).toBe(0);
  const text = r.stdout.trim();
  expect(text.startsWith('{') || text.startsWith('[')).toBe(true);
  return JSON.parse(text);
}

describe('CLI on SQLite (npm run fundi for the binary itself)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fundi-cli-'));
  const env = { FUNDI_DATA_DIR: dir, DATABASE_URL: '' };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  let tenant: TenantJson;
  let issued: KeyJson;

  it('tenants create --json prints one JSON object: the tenant and its admin key', async () => {
    tenant = json<TenantJson>(
      await fundi(env, 'tenants', 'create', '--slug', 'x', '--name', 'X', '--plan', 'pilot', '--json'),
    );
    expect(Object.keys(tenant).sort()).toEqual(['apiKey', 'tenant']);
    expect(tenant.tenant).toEqual({ id: expect.stringMatching(/^ten_/), slug: 'x', name: 'X', plan: 'pilot' });
    expect(Object.keys(tenant.apiKey).sort()).toEqual(['id', 'key', 'role', 'scopes']);
    expect(tenant.apiKey).toMatchObject({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(/^fnd_live_/),
      role: 'admin',
    });
    expect(tenant.apiKey.scopes).toContain('learners:delete');
  }, 60_000);

  it('keys create --json prints the documented key object', async () => {
    issued = json<KeyJson>(
      await cli(
        env,
        'keys',
        'create',
        '--tenant',
        'x',
        '--name',
        'HR sync',
        '--role',
        'integration',
        '--scopes',
        'learners:*',
        '--expires',
        '2099-12-31',
        '--json',
      ),
    );
    expect(Object.keys(issued).sort()).toEqual(['expiresAt', 'id', 'key', 'name', 'role', 'scopes']);
    expect(issued).toMatchObject({
      name: 'HR sync',
      role: 'integration',
      expiresAt: '2099-12-31',
      key: expect.stringMatching(/^fnd_live_/),
    });
    expect(issued.scopes.sort()).toEqual(['learners:read', 'learners:write']);
  }, 30_000);

  it('tenants update overrides limits and changes the plan', async () => {
    const r = json<TenantJson>(
      await cli(
        env,
        'tenants',
        'update',
        '--slug',
        'x',
        '--per-minute',
        '5',
        '--per-day',
        'none',
        '--storage-gb',
        '2',
        '--json',
      ),
    );
    expect(r.limits).toEqual({ perMinute: 5, perDay: null, storageBytes: 2 * 1024 ** 3 });
    const back = json<TenantJson>(
      await cli(
        env,
        'tenants',
        'update',
        '--slug',
        'x',
        '--plan',
        'starter',
        '--per-minute',
        'plan',
        '--per-day',
        'plan',
        '--storage-gb',
        'plan',
        '--json',
      ),
    );
    expect(back.tenant).toMatchObject({ slug: 'x', plan: 'starter', limitOverrides: {} });
    expect(back.limits).toEqual({ perMinute: 60, perDay: 1000, storageBytes: 5 * 1024 ** 3 });
  }, 30_000);

  it('keys list and revoke; the revoked key gets 401 from a server over the same data dir', async () => {
    const config = loadConfig({ FUNDI_DATA_DIR: dir, LOG_LEVEL: 'silent' });
    const c = containerFor(config);
    const server: Server = httpApp(c, config).listen(0, '127.0.0.1');
    await new Promise((ok) => server.once('listening', ok));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = (key: string) =>
      fetch(`${base}/api/v1/learners`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
    try {
      await expect(get(issued.key)).resolves.toBe(200);
      const revoked = await cli(env, 'keys', 'revoke', '--tenant', 'x', issued.id, '--json');
      expect(json(revoked)).toEqual({ id: issued.id, revoked: true });
      await expect(get(issued.key)).resolves.toBe(401);
      await expect(get(tenant.apiKey.key)).resolves.toBe(200);
      await resolve(c, T.Meter).flush();
      const listed = json<KeyListJson>(await cli(env, 'keys', 'list', '--tenant', 'x', '--json'));
      expect(listed.map((k) => k.id)).toEqual([issued.id, tenant.apiKey.id]);
      // The server's counted requests show as each key's last use.
      expect(Date.parse(listed[0]!.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(listed[1]!.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(listed[0]).toMatchObject({ revokedAt: expect.any(String), prefix: issued.key.slice(0, 13) });
      expect(JSON.stringify(listed)).not.toContain(issued.key);
      expect(listed[0]).not.toHaveProperty('hash');
    } finally {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
      await closeContainer(c);
    }
  }, 30_000);

  it('keys rewrap reports what it re-wrapped, and refuses a malformed previous key by its variable', async () => {
    const previous = Buffer.alloc(32, 5).toString('base64');
    expect(json(await cli({ ...env, FUNDI_PREVIOUS_MASTER_KEYS: previous }, 'keys', 'rewrap', '--json'))).toEqual({
      files: { rewrapped: 0, files: 0 },
      webhookSecrets: 0,
      notificationSettings: 0,
    });
    // Every capability that seals what it stores reports in words, in the list's order.
    expect((await cli({ ...env, FUNDI_PREVIOUS_MASTER_KEYS: previous }, 'keys', 'rewrap')).stdout).toContain(
      "Under the current master key: sealed 0 webhook subscriptions' secrets again, re-wrapped 0 of 0 stored files, " +
        "sealed 0 tenants' mail and WhatsApp secrets again.",
    );
    const bad = await cli({ ...env, FUNDI_PREVIOUS_MASTER_KEYS: 'c2hvcnQ=' }, 'keys', 'rewrap');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('FUNDI_PREVIOUS_MASTER_KEYS');
    expect(bad.stdout).toBe('');
  }, 60_000);
  it('regulator settings: shows, changes the given flags only, unsets with none, refuses a bad code', async () => {
    const set = json(
      await cli(
        env,
        'regulator',
        'settings',
        '--tenant',
        'x',
        '--sdp-code',
        'SDP0012345',
        '--flc-status',
        '06',
        '--json',
      ),
    );
    expect(set).toMatchObject({
      tenant: 'x',
      settings: { sdpCode: 'SDP0012345', flcStatus: '06', readinessTypeId: null },
    });
    const more = json<{ settings: Record<string, unknown> }>(
      await cli(env, 'regulator', 'settings', '--tenant', 'x', '--flc-status', 'none', '--json'),
    );
    expect(more.settings).toMatchObject({ sdpCode: 'SDP0012345', flcStatus: null });
    const bad = await cli(env, 'regulator', 'settings', '--tenant', 'x', '--readiness-type-id', '9', '--json');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/readinessTypeId/);
  }, 30_000);

  it('evidence retention (a command the evidence contributes): shows, sets, refuses an unknown tenant', async () => {
    expect(json(await cli(env, 'evidence', 'retention', '--tenant', 'x', '--json'))).toEqual({
      tenant: 'x',
      retentionYears: 7,
    });
    expect(json(await cli(env, 'evidence', 'retention', '--tenant', 'x', '--years', '10', '--json'))).toEqual({
      tenant: 'x',
      retentionYears: 10,
    });
    expect((await cli(env, 'evidence', 'retention', '--tenant', 'x')).stdout).toContain(
      "Tenant x: evidence is kept 10 years after the enrolment's completion, then purged.",
    );
    const unknown = await cli(env, 'evidence', 'retention', '--tenant', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No tenant nope');
    expect(unknown.stderr).toContain('evidence retention --tenant <slug> [--years N] [--json]');
  }, 30_000);

  it('refuses bad input: message on stderr, nothing on stdout, non-zero exit', async () => {
    const cases: [string, string[], RegExp][] = [
      ['a bad plan', ['tenants', 'create', '--slug', 'y', '--name', 'Y', '--plan', 'gold', '--json'], /plan/],
      ['a duplicate slug', ['tenants', 'create', '--slug', 'x', '--name', 'X', '--plan', 'pilot', '--json'], /slug/],
      [
        'an unknown tenant',
        ['keys', 'create', '--tenant', 'nobody', '--name', 'k', '--role', 'viewer', '--json'],
        /not found/i,
      ],
      [
        'a scope outside the role',
        ['keys', 'create', '--tenant', 'x', '--name', 'k', '--role', 'viewer', '--scopes', 'learners:write', '--json'],
        /learners:write.*viewer/,
      ],
    ];
    // One after the other: runs started at the same instant in one process race for knex's migration lock, which
    // SQLite refuses at once ("database is locked") instead of waiting; each run here takes a fraction of a second.
    const results: Run[] = [];
    for (const [, args] of cases) results.push(await cli(env, ...args));
    results.forEach((r, i) => {
      const [label, , message] = cases[i]!;
      expect(r.code, label).toBe(1);
      expect(r.stdout, label).toBe('');
      expect(r.stderr, label).toMatch(message);
    });
  }, 30_000);

  it('the binary refuses the same way: exit code 1, the message on stderr, nothing on stdout', async () => {
    const r = await fundi(env, 'tenants', 'create', '--slug', 'x', '--name', 'X', '--plan', 'pilot', '--json');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/slug/);
  }, 60_000);

  it('an unknown command prints the usage with exit code 2; --help prints it with 0', async () => {
    const unknown = await cli(env, 'tenants', 'explode');
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toContain('tenants create');
    const help = await cli(env, '--help');
    expect(help).toMatchObject({ code: 0, stdout: '', stderr: unknown.stderr });
  });

  it('a bad environment variable is reported by name', async () => {
    const r = await cli({ ...env, LOG_LEVEL: 'silent', DATABASE_URL: 'mysql://nope' }, 'tenants', 'list', '--json');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('DATABASE_URL');
  }, 30_000);
});

(pgUp ? describe : describe.skip)('CLI: npm run fundi on Postgres', () => {
  const db = `fundi_cli_${randomBytes(4).toString('hex')}`;
  const url = new URL(POSTGRES_TEST_URL);
  url.pathname = `/${db}`;
  const admin = () =>
    new pg.Client({ connectionString: POSTGRES_TEST_URL, user: new URL(POSTGRES_TEST_URL).username || 'postgres' });
  beforeAll(async () => {
    const c = admin();
    await c.connect();
    await c.query(`CREATE DATABASE ${db}`);
    await c.end();
  });
  afterAll(async () => {
    const c = admin();
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await c.end();
  });

  it('tenants create and keys list work against DATABASE_URL', async () => {
    const env = { DATABASE_URL: url.toString(), FUNDI_MASTER_KEY: Buffer.alloc(32, 1).toString('base64') };
    const created = json<TenantJson>(
      await cli(env, 'tenants', 'create', '--slug', 'pg', '--name', 'PG', '--plan', 'starter', '--json'),
    );
    expect(created.tenant).toMatchObject({ slug: 'pg', plan: 'starter' });
    const keys = json(await cli(env, 'keys', 'list', '--tenant', 'pg', '--json'));
    expect(keys).toEqual([expect.objectContaining({ id: created.apiKey.id, role: 'admin', revokedAt: null })]);
  }, 60_000);
});

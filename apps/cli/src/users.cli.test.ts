import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeContainer, useCasesOf } from '@fundi/adapters';
import { containerFor, loadConfig, staff } from '@fundi/server';
import { buildBeforeAll } from '@fundi/adapters/testing';
import { cliInProcess, cliProcess } from './testing/cli-runs.js';

/** The CLI in this process, `stdin` its input. */
const cli = (env: Record<string, string>, args: string[], stdin = '') => cliInProcess(env, args, stdin);

buildBeforeAll();

describe('CLI: users create (the first dashboard administrator)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fundi-cli-users-'));
  const env = { FUNDI_DATA_DIR: dir, DATABASE_URL: '', PORT: '3999' };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates an admin with a password from stdin, who can then sign in', { timeout: 30_000 }, async () => {
    expect((await cli(env, ['tenants', 'create', '--slug', 'demo', '--name', 'Demo', '--plan', 'pilot'])).code).toBe(0);
    const args = ['users', 'create', '--tenant', 'demo', '--email', 'Admin@Example.org', '--name', 'Ayanda Dlamini'];
    // The built binary itself, reading the password from its own stdin (cli.test.ts runs it through npm run fundi).
    const r = await cliProcess(env, [...args, '--role', 'admin', '--password-stdin'], 'a long passphrase here\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Created admin admin@example.org');
    expect(r.stdout).toContain('http://localhost:3999/dashboard/sign-in?tenant=demo');
    const c = containerFor(loadConfig({ ...process.env, ...env, LOG_LEVEL: 'silent' }));
    try {
      const opened = await useCasesOf(c, staff).signIn.execute({
        tenant: 'demo',
        email: 'admin@example.org',
        password: 'a long passphrase here',
      });
      expect(opened.token.length).toBeGreaterThan(30);
    } finally {
      await closeContainer(c);
    }
  });

  it('without a password prints a one-time set-password link; a duplicate email or a short password is refused', async () => {
    const r = await cli(env, [
      'users',
      'create',
      '--tenant',
      'demo',
      '--email',
      'a@example.org',
      '--name',
      'A',
      '--role',
      'assessor',
      '--json',
    ]);
    const out = JSON.parse(r.stdout);
    expect(out.user).toMatchObject({ email: 'a@example.org', role: 'assessor', hasPassword: false });
    expect(out.setPasswordLink).toMatch(/^http:\/\/localhost:3999\/dashboard\/set-password\?token=usr_/);
    const dup = await cli(env, [
      'users',
      'create',
      '--tenant',
      'demo',
      '--email',
      'A@example.org',
      '--name',
      'A',
      '--role',
      'viewer',
    ]);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('already exists');
    const short = await cli(
      env,
      [
        'users',
        'create',
        '--tenant',
        'demo',
        '--email',
        'b@example.org',
        '--name',
        'B',
        '--role',
        'viewer',
        '--password-stdin',
      ],
      'short',
    );
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('password: must be 12 to 200 characters long');
  });
});

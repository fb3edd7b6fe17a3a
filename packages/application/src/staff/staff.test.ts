import { describe, expect, it } from 'vitest';
import { memoryStorage } from '@fundi/memory';
import { platformMemory } from '@fundi/memory/platform';
import { staffMemory } from '@fundi/memory/staff';
import { tenantMemory } from '@fundi/memory/tenants';
import { FixedClock, fakeSecrets } from '@fundi/testing';
import { CreateTenant } from '../tenants/create-tenant.js';
import { TEST_ACCESS, TEST_HOOKS } from '../testing/fakes.js';
import { hashPassword, verifyPassword } from './password.js';
import { staffUseCases } from './staff-use-cases.js';

const PASSWORD = 'correct horse battery staple';

async function world() {
  const clock = new FixedClock(new Date('2026-06-01T08:00:00Z'));
  const { repositories, uow } = memoryStorage([platformMemory, tenantMemory, staffMemory]);
  const deps = { repos: repositories(), uow, clock, secrets: fakeSecrets(), access: TEST_ACCESS, hooks: TEST_HOOKS };
  await new CreateTenant(deps).execute({ slug: 'acme', name: 'Acme', plan: 'pilot' });
  return { clock, repos: deps.repos, u: staffUseCases(deps) };
}

describe('staff passwords and sessions', () => {
  it('hashes with scrypt (salted, parameters in the hash) and verifies only the same password', async () => {
    const a = await hashPassword(PASSWORD);
    const b = await hashPassword(PASSWORD);
    expect(a).toMatch(/^scrypt\$15\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword(PASSWORD, a)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}!`, a)).toBe(false);
    expect(await verifyPassword(PASSWORD, null)).toBe(false);
  });

  it('opens a session whose actor has every scope of the role, and ends it at expiry or sign-out', async () => {
    const { clock, u } = await world();
    await u.createStaffUser.execute('acme', {
      email: 'm@example.org',
      name: 'M',
      role: 'moderator',
      password: PASSWORD,
    });
    const opened = await u.signIn.execute({ tenant: 'ACME', email: 'M@example.org', password: PASSWORD });
    const s = (await u.resolveSession.execute(opened.token))!;
    expect(s.actor).toMatchObject({ role: 'moderator', id: s.user.id });
    expect(s.actor.scopes).toContain('assessments:moderate');
    expect(s.actor.scopes).not.toContain('learners:write');
    clock.set(new Date('2026-06-01T19:59:59Z'));
    expect(await u.resolveSession.execute(opened.token)).not.toBeNull();
    clock.set(new Date('2026-06-01T20:00:00Z'));
    expect(await u.resolveSession.execute(opened.token)).toBeNull();
    clock.set(new Date('2026-06-01T09:00:00Z'));
    await u.signOut.execute(opened.token);
    expect(await u.resolveSession.execute(opened.token)).toBeNull();
  });

  it('refuses a user without a password, a disabled user and a wrong tenant with the same error', async () => {
    const { repos, u } = await world();
    const made = await u.createStaffUser.execute('acme', { email: 'n@example.org', name: 'N', role: 'viewer' });
    expect(made.setPasswordToken).toMatch(/^usr_/);
    const refused = { kind: 'unauthorized', code: 'sign_in_failed' };
    await expect(u.signIn.execute({ tenant: 'acme', email: 'n@example.org', password: '' })).rejects.toMatchObject(
      refused,
    );
    await u.setPassword.execute(made.setPasswordToken!, PASSWORD);
    await expect(u.setPassword.execute(made.setPasswordToken!, PASSWORD)).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(
      u.signIn.execute({ tenant: 'other', email: 'n@example.org', password: PASSWORD }),
    ).rejects.toMatchObject(refused);
    const row = (await repos.staffCredentials.findById((await repos.tenants.findBySlug('acme'))!.id, made.user.id))!;
    await repos.staffCredentials.update({ ...row, status: 'disabled' });
    await expect(
      u.signIn.execute({ tenant: 'acme', email: 'n@example.org', password: PASSWORD }),
    ).rejects.toMatchObject(refused);
  });

  it('lets a set-password link expire after 72 hours', async () => {
    const { clock, u } = await world();
    const made = await u.createStaffUser.execute('acme', { email: 'o@example.org', name: 'O', role: 'viewer' });
    clock.set(new Date('2026-06-04T08:00:00Z'));
    expect(await u.peekSetPassword.execute(made.setPasswordToken!)).toBeNull();
    await expect(u.setPassword.execute(made.setPasswordToken!, PASSWORD)).rejects.toMatchObject({ kind: 'forbidden' });
  });
});

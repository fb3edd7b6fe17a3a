import { beforeEach, describe, expect, it } from 'vitest';
import { fakeDeps } from '../testing/fakes.js';
import { Authenticate } from './authenticate.js';
import { CreateTenant } from './create-tenant.js';
import { CreateApiKey } from './create-api-key.js';
import { ListApiKeys } from './list-api-keys.js';
import { RevokeApiKey } from './revoke-api-key.js';

describe('tenant and API key use cases (in-memory fakes)', () => {
  let d: ReturnType<typeof fakeDeps>;
  beforeEach(() => {
    d = fakeDeps();
  });
  const tenant = (slug = 'acme', plan = 'pilot') => new CreateTenant(d).execute({ slug, name: 'Acme', plan });

  it('create tenant: the tenant and one admin key with every admin scope, key shown once, hash stored', async () => {
    const t = await tenant();
    expect(t.tenant).toEqual({ id: expect.stringMatching(/^ten_/), slug: 'acme', name: 'Acme', plan: 'pilot' });
    expect(t.apiKey).toMatchObject({
      id: expect.stringMatching(/^key_/),
      role: 'admin',
      key: 'fnd_test_1_0123456789abcdef',
      revokedAt: null,
      expiresAt: null,
    });
    expect(t.apiKey.scopes).toContain('learners:delete');
    expect(t.apiKey).not.toHaveProperty('hash');
    const stored = await d.repos.apiKeys.findByHash('h:fnd_test_1_0123456789abcdef');
    expect(stored).toMatchObject({ id: t.apiKey.id, hash: 'h:fnd_test_1_0123456789abcdef' });
    expect(Object.values(stored!)).not.toContain(t.apiKey.key);
    await expect(
      d.repos.audit.list(t.tenant.id, { limit: 10 }).then((a) => a.map((e) => e.action).sort()),
    ).resolves.toEqual(['api_key.created', 'tenant.created']);
  });

  it('create tenant: bad plan, bad slug and duplicate slug are refused, and nothing is half-written', async () => {
    await expect(tenant('acme', 'gold')).rejects.toMatchObject({ kind: 'invalid', details: [{ field: 'plan' }] });
    await expect(tenant('Not A Slug')).rejects.toMatchObject({ kind: 'invalid', details: [{ field: 'slug' }] });
    await tenant();
    await expect(tenant()).rejects.toMatchObject({ kind: 'conflict', code: 'duplicate_slug' });
    expect(d.store.tables.tenants.size).toBe(1);
    expect(d.store.tables.apiKeys.size).toBe(1);
  });

  it('keys: create within the role (scopes resolved, learners:* expanded), list newest first, revoke', async () => {
    const t = await tenant();
    const create = new CreateApiKey(d);
    const viewer = await create.execute('acme', { name: 'Viewer', role: 'viewer' });
    expect(viewer.scopes).toContain('learners:read');
    expect(viewer.scopes).not.toContain('learners:write');
    const integ = await create.execute('acme', {
      name: 'Integration',
      role: 'integration',
      scopes: ['learners:*'],
      expiresAt: '2026-12-31',
    });
    expect(integ.scopes.sort()).toEqual(['learners:read', 'learners:write']);
    expect(integ.expiresAt).toBe('2026-12-31');
    const listed = await new ListApiKeys(d).execute('acme');
    expect(listed.map((k) => k.id)).toEqual([integ.id, viewer.id, t.apiKey.id]);
    expect(listed.every((k) => !('hash' in k) && !('key' in k))).toBe(true);
    await new RevokeApiKey(d).execute('acme', viewer.id);
    await expect(new ListApiKeys(d).execute('acme')).resolves.toContainEqual(
      expect.objectContaining({ id: viewer.id, revokedAt: d.clock.now().toISOString() }),
    );
  });

  it('keys: scope outside the role, unknown scope, bad role, past expiry, unknown tenant and foreign key are refused', async () => {
    await tenant();
    await tenant('other');
    const create = new CreateApiKey(d);
    await expect(
      create.execute('acme', { name: 'v', role: 'viewer', scopes: ['learners:write'] }),
    ).rejects.toMatchObject({
      kind: 'invalid',
      details: [{ field: 'scopes', message: expect.stringMatching(/not within role viewer/) }],
    });
    await expect(
      create.execute('acme', { name: 'v', role: 'viewer', scopes: ['rockets:launch'] }),
    ).rejects.toMatchObject({ details: [{ message: expect.stringMatching(/unknown scope/) }] });
    await expect(create.execute('acme', { name: 'v', role: 'superuser' })).rejects.toMatchObject({
      details: [{ field: 'role' }],
    });
    await expect(create.execute('acme', { name: 'v', role: 'viewer', expiresAt: '2020-01-01' })).rejects.toMatchObject({
      details: [{ field: 'expiresAt' }],
    });
    await expect(create.execute('nobody', { name: 'v', role: 'viewer' })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(new ListApiKeys(d).execute('nobody')).rejects.toMatchObject({ kind: 'not_found' });
    const k = await create.execute('other', { name: 'v', role: 'viewer' });
    await expect(new RevokeApiKey(d).execute('acme', k.id)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(new RevokeApiKey(d).execute('acme', 'key_nope')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('authenticate: a valid key gives the actor, tenant and plan limits; unknown, revoked and expired are unauthorized', async () => {
    const t = await tenant();
    const auth = new Authenticate(d);
    const p = await auth.execute(t.apiKey.key);
    expect(p.actor).toMatchObject({ tenantId: t.tenant.id, id: t.apiKey.id, role: 'admin' });
    expect(p.tenant.slug).toBe('acme');
    expect(p.limits).toMatchObject({ perMinute: 60, perDay: 10_000 });
    await expect(auth.execute('fnd_test_unknown')).rejects.toMatchObject({ kind: 'unauthorized' });

    const expiring = await new CreateApiKey(d).execute('acme', {
      name: 'e',
      role: 'viewer',
      expiresAt: d.clock.now().toISOString().slice(0, 10),
    });
    await expect(auth.execute(expiring.key)).resolves.toBeTruthy(); // usable through its last day
    d.clock.advance(24 * 3600_000);
    await expect(auth.execute(expiring.key)).rejects.toMatchObject({ kind: 'unauthorized' });

    await new RevokeApiKey(d).execute('acme', t.apiKey.id);
    await expect(auth.execute(t.apiKey.key)).rejects.toMatchObject({ kind: 'unauthorized' });
  });
});

import { expect, it } from 'vitest';
import { aTenant, anApiKey } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';

describeEachStorage('TenantRepository contract', (get) => {
  it('inserts and finds by slug and id', async () => {
    const t = aTenant({ limitOverrides: { perMinute: 5 } });
    await get().repos.tenants.insert(t);
    await expect(get().repos.tenants.findBySlug(t.slug)).resolves.toEqual(t);
    await expect(get().repos.tenants.findById(t.id)).resolves.toEqual(t);
  });

  it('answers null for unknown slugs and ids', async () => {
    await expect(get().repos.tenants.findBySlug('nobody-here')).resolves.toBeNull();
    await expect(get().repos.tenants.findById('ten_unknown')).resolves.toBeNull();
  });

  it('refuses a duplicate slug with conflict duplicate_slug', async () => {
    const t = aTenant();
    await get().repos.tenants.insert(t);
    await expect(get().repos.tenants.insert(aTenant({ slug: t.slug }))).rejects.toMatchObject({
      kind: 'conflict',
      code: 'duplicate_slug',
    });
  });

  it('lists every tenant ordered by slug', async () => {
    await get().repos.tenants.insert(aTenant({ slug: 'zz-last' }));
    await get().repos.tenants.insert(aTenant({ slug: 'aa-first' }));
    const slugs = (await get().repos.tenants.list()).map((t) => t.slug);
    expect(slugs).toEqual([...slugs].sort());
    expect(slugs).toEqual(expect.arrayContaining(['aa-first', 'zz-last']));
  });
});

describeEachStorage('ApiKeyRepository contract', (get) => {
  it('finds a key by hash, including revoked and expired ones', async () => {
    const t = aTenant();
    await get().repos.tenants.insert(t);
    const k = anApiKey({ tenantId: t.id, expiresAt: '2020-01-01', scopes: ['learners:read'] });
    await get().repos.apiKeys.insert(k);
    await expect(get().repos.apiKeys.findByHash(k.hash)).resolves.toEqual(k);
    await expect(get().repos.apiKeys.findByHash('no-such-hash')).resolves.toBeNull();
  });

  it("lists a tenant's keys newest first, and no one else's", async () => {
    const [a, b] = [aTenant(), aTenant()];
    await get().repos.tenants.insert(a);
    await get().repos.tenants.insert(b);
    const first = anApiKey({ tenantId: a.id });
    const second = anApiKey({ tenantId: a.id });
    await get().repos.apiKeys.insert(first);
    await get().repos.apiKeys.insert(second);
    await get().repos.apiKeys.insert(anApiKey({ tenantId: b.id }));
    await expect(
      get()
        .repos.apiKeys.listByTenant(a.id)
        .then((ks) => ks.map((k) => k.id)),
    ).resolves.toEqual([second.id, first.id]);
  });

  it("finds the tenant's keys by ids, revoked and expired ones included, over long id lists", async () => {
    const [a, b] = [aTenant(), aTenant()];
    await get().repos.tenants.insert(a);
    await get().repos.tenants.insert(b);
    const live = anApiKey({ tenantId: a.id, name: 'Live key' });
    const revoked = anApiKey({ tenantId: a.id, name: 'Revoked key' });
    const expired = anApiKey({ tenantId: a.id, name: 'Expired key', expiresAt: '2020-01-01T00:00:00.000Z' });
    const unnamed = anApiKey({ tenantId: a.id });
    const others = anApiKey({ tenantId: b.id });
    for (const k of [live, revoked, expired, unnamed, others]) await get().repos.apiKeys.insert(k);
    await get().repos.apiKeys.revoke(a.id, revoked.id, '2026-01-02T00:00:00.000Z');
    // 1,203 ids: the keys sit in different chunks of 500, with unknown ids, a repeat and another tenant's key.
    const filler = Array.from({ length: 1198 }, (_, i) => `key_unknown${i}`);
    const ids = [live.id, ...filler.slice(0, 600), revoked.id, others.id, ...filler.slice(600), expired.id, live.id];
    const found = await get().repos.apiKeys.findByIds(a.id, ids);
    expect(found.map((k) => k.id).sort()).toEqual([live.id, revoked.id, expired.id].sort());
    expect(found.find((k) => k.id === revoked.id)).toEqual({ ...revoked, revokedAt: '2026-01-02T00:00:00.000Z' });
    expect(found.find((k) => k.id === expired.id)).toEqual(expired);
    await expect(get().repos.apiKeys.findByIds(b.id, [live.id, others.id])).resolves.toEqual([others]);
    await expect(get().repos.apiKeys.findByIds(a.id, [])).resolves.toEqual([]);
  });

  it("revokes once, keeps the first time, and refuses another tenant's key", async () => {
    const [a, b] = [aTenant(), aTenant()];
    await get().repos.tenants.insert(a);
    await get().repos.tenants.insert(b);
    const k = anApiKey({ tenantId: a.id });
    await get().repos.apiKeys.insert(k);
    await expect(get().repos.apiKeys.revoke(b.id, k.id, '2026-01-01T00:00:00.000Z')).resolves.toBe(false);
    await expect(get().repos.apiKeys.revoke(a.id, k.id, '2026-01-02T00:00:00.000Z')).resolves.toBe(true);
    await expect(get().repos.apiKeys.revoke(a.id, k.id, '2026-01-03T00:00:00.000Z')).resolves.toBe(true);
    await expect(get().repos.apiKeys.findByHash(k.hash)).resolves.toMatchObject({
      revokedAt: '2026-01-02T00:00:00.000Z',
    });
    await expect(get().repos.apiKeys.revoke(a.id, 'key_unknown', '2026-01-02T00:00:00.000Z')).resolves.toBe(false);
  });
});

describeEachStorage('ApiKeyUsageRepository contract', (get) => {
  it('adds counts per key and day, keeps the latest use, and sums a tenant day', async () => {
    const t = aTenant();
    await get().repos.tenants.insert(t);
    const u = get().repos.apiKeyUsage;
    const d = (keyId: string, day: string, requests: number, lastUsedAt: string) => ({
      tenantId: t.id,
      keyId,
      day,
      requests,
      lastUsedAt,
    });
    await u.add([]);
    await u.add([
      d('key_a', '2026-11-23', 3, '2026-11-23T10:00:00.000Z'),
      d('key_b', '2026-11-23', 2, '2026-11-23T09:00:00.000Z'),
    ]);
    // A second process adds its own counts; an older last-use does not win.
    await u.add([
      d('key_a', '2026-11-23', 4, '2026-11-23T08:00:00.000Z'),
      d('key_a', '2026-11-24', 1, '2026-11-24T00:00:01.000Z'),
    ]);
    expect(await u.requestsOn(t.id, '2026-11-23')).toBe(9);
    expect(await u.requestsOn(t.id, '2026-11-24')).toBe(1);
    expect(await u.requestsOn(t.id, '2026-11-25')).toBe(0);
    expect(await u.requestsOn('ten_other', '2026-11-23')).toBe(0);
    expect(await u.lastUsed(t.id)).toEqual({
      key_a: '2026-11-24T00:00:01.000Z',
      key_b: '2026-11-23T09:00:00.000Z',
    });
  });
});

import { aTenant, anApiKey } from '@fundi/domain/testing';
import { expect, it } from 'vitest';
import { openDatabase } from '../db/open-database.js';
import { SqlApiKeyRepository } from './sql-api-keys.js';
import { describeEachStorage } from '../testing/each-storage.js';

const nextTurn = () => new Promise((ok) => setImmediate(ok));

describeEachStorage('the auth epoch as a request reads it', (get, kind) => {
  it("moves with this process's key write, in the same turn too", async () => {
    const t = aTenant();
    await get().repos.tenants.insert(t);
    const k = anApiKey({ tenantId: t.id });
    await get().repos.apiKeys.insert(k);
    const before = await get().repos.apiKeys.authEpoch();
    await expect(get().repos.apiKeys.authEpoch()).resolves.toBe(before);
    await get().repos.apiKeys.revoke(t.id, k.id, '2026-01-02T00:00:00.000Z');
    await expect(get().repos.apiKeys.authEpoch()).resolves.not.toBe(before);
  });

  if (kind !== 'sqlite') return;
  it("moves with another process's key write once the reader's snapshot of the turn has ended", async () => {
    const t = aTenant();
    await get().repos.tenants.insert(t);
    const k = anApiKey({ tenantId: t.id });
    await get().repos.apiKeys.insert(k);
    const other = openDatabase(get().target!);
    try {
      await nextTurn();
      const before = await get().repos.apiKeys.authEpoch();
      await expect(new SqlApiKeyRepository(other).revoke(t.id, k.id, '2026-01-02T00:00:00.000Z')).resolves.toBe(true);
      await nextTurn();
      await expect(get().repos.apiKeys.authEpoch()).resolves.not.toBe(before);
    } finally {
      await other.close();
    }
  });
});

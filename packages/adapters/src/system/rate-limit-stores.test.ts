import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimitStore } from '@fundi/application';
import { openDatabase } from '../db/open-database.js';
import type { SqlDb } from '../db/sql-db.js';
import { openTestStorage, postgresAvailable, type TestStorage } from '../testing/test-databases.js';
import { MemoryRateLimitStore, PostgresRateLimitStore } from './rate-limit-stores.js';

const pgUp = await postgresAvailable();
const MINUTE = { seconds: 60, limit: 3 };
const DAY = { seconds: 86_400, limit: 5 };
const T0 = Date.UTC(2026, 5, 1, 8, 0, 0); // on a minute boundary
const sec = (ms: number) => Math.floor(ms / 1000);

function contract(name: string, open: () => Promise<{ store: RateLimitStore; close(): Promise<void> }>) {
  describe(`RateLimitStore contract [${name}]`, () => {
    let s: { store: RateLimitStore; close(): Promise<void> };
    let n = 0;
    const key = () => `key:test-${++n}-${Math.random()}`;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => s?.close());

    it('counts hits per key and reports the window end', async () => {
      const k = key();
      await expect(s.store.hit(k, [MINUTE], T0 + 5_000)).resolves.toEqual([{ hits: 1, resetAt: sec(T0) + 60 }]);
      await expect(s.store.hit(k, [MINUTE], T0 + 6_000)).resolves.toEqual([{ hits: 2, resetAt: sec(T0) + 60 }]);
      await expect(s.store.hit(key(), [MINUTE], T0 + 6_000)).resolves.toEqual([{ hits: 1, resetAt: sec(T0) + 60 }]);
    });

    it('starts again in the next window', async () => {
      const k = key();
      await s.store.hit(k, [MINUTE], T0 + 59_999);
      await expect(s.store.hit(k, [MINUTE], T0 + 59_999)).resolves.toMatchObject([{ hits: 2 }]);
      await expect(s.store.hit(k, [MINUTE], T0 + 60_000)).resolves.toEqual([{ hits: 1, resetAt: sec(T0) + 120 }]);
    });

    it('counts several windows at once, in the order given', async () => {
      const k = key();
      await s.store.hit(k, [MINUTE, DAY], T0);
      await s.store.hit(k, [MINUTE, DAY], T0 + 1_000);
      const dayStart = Math.floor(sec(T0) / 86_400) * 86_400;
      await expect(s.store.hit(k, [MINUTE, DAY], T0 + 61_000)).resolves.toEqual([
        { hits: 1, resetAt: sec(T0) + 120 },
        { hits: 3, resetAt: dayStart + 86_400 },
      ]);
      await expect(s.store.hit(k, [DAY], T0 + 62_000)).resolves.toEqual([{ hits: 4, resetAt: dayStart + 86_400 }]);
    });

    it('loses no hit under concurrency', async () => {
      const k = key();
      await Promise.all(Array.from({ length: 20 }, () => s.store.hit(k, [MINUTE], T0)));
      await expect(s.store.hit(k, [MINUTE], T0)).resolves.toMatchObject([{ hits: 21 }]);
    });
  });
}

contract('memory', async () => ({ store: new MemoryRateLimitStore(), close: async () => {} }));

(pgUp ? describe : describe.skip)('PostgresRateLimitStore', () => {
  let storage: TestStorage;
  let second: SqlDb;
  beforeAll(async () => {
    storage = await openTestStorage('postgres');
    second = openDatabase(storage.target!);
  });
  afterAll(async () => {
    await second?.close();
    await storage?.close();
  });

  contract('postgres', async () => ({ store: new PostgresRateLimitStore(storage.db!), close: async () => {} }));

  it('shares counters between two stores (two processes) on one database', async () => {
    const a = new PostgresRateLimitStore(storage.db!);
    const b = new PostgresRateLimitStore(second);
    await a.hit('key:shared', [MINUTE], T0);
    await b.hit('key:shared', [MINUTE], T0);
    await expect(a.hit('key:shared', [MINUTE], T0)).resolves.toMatchObject([{ hits: 3 }]);
  });

  it('prunes windows once they have passed, in batches, and keeps the current ones', async () => {
    const store = new PostgresRateLimitStore(storage.db!);
    const later = T0 + 365 * 86_400_000;
    for (const k of ['a', 'b', 'c']) await store.hit(`key:old-${k}`, [MINUTE], later);
    await store.hit('key:current', [MINUTE], later + 120_000);
    const count = async (like: string) =>
      Number(
        (await storage.db!.first<{ n: number }>('SELECT COUNT(*) AS n FROM rate_limit_counters WHERE key LIKE ?', [
          like,
        ]))!.n,
      );
    // The windows of `later` end a minute after it; the earlier tests' windows ended long before.
    const now = later + 120_000;
    let pruned = 0;
    for (let n = await store.pruneExpired(now, 2); n > 0; n = await store.pruneExpired(now, 2)) {
      expect(n).toBeLessThanOrEqual(2);
      pruned += n;
    }
    expect(pruned).toBeGreaterThanOrEqual(3);
    expect(await count('key:old-%')).toBe(0);
    expect(await count('key:current%')).toBe(1);
  });
});

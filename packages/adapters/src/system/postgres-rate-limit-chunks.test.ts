import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStorage, postgresAvailable, type TestStorage } from '../testing/test-databases.js';
import { PostgresRateLimitStore } from './rate-limit-stores.js';

const pgUp = await postgresAvailable();

(pgUp ? describe : describe.skip)('PostgresRateLimitStore chunks [postgres]', () => {
  let s: TestStorage;
  beforeAll(async () => {
    s = await openTestStorage('postgres');
  });
  afterAll(async () => s?.close());
  const now = Date.UTC(2026, 5, 1, 8, 0, 10);

  it('is exact across processes for small limits: the 61st request of two processes is over 60', async () => {
    const a = new PostgresRateLimitStore(s.db!);
    const b = new PostgresRateLimitStore(s.db!);
    const seen: number[] = [];
    for (let i = 0; i < 61; i++)
      seen.push((await (i % 2 ? a : b).hit('k-small', [{ seconds: 60, limit: 60 }], now))[0]!.hits);
    expect(seen).toEqual(Array.from({ length: 61 }, (_, i) => i + 1));
  });

  it('takes counts in chunks of 0.1% of large limits, and never admits more than the limit', async () => {
    const a = new PostgresRateLimitStore(s.db!);
    const counts = [];
    for (let i = 0; i < 25; i++) counts.push((await a.hit('k-large', [{ seconds: 60, limit: 10_000 }], now))[0]!.hits);
    expect(counts).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    const row = await s.db!.first<{ hits: number }>("SELECT hits FROM rate_limit_counters WHERE key = 'k-large|60'");
    expect(Number(row!.hits)).toBe(30);
    const b = new PostgresRateLimitStore(s.db!);
    expect((await b.hit('k-large', [{ seconds: 60, limit: 10_000 }], now))[0]!.hits).toBe(31);
  });

  it('starts a new count in the next window', async () => {
    const a = new PostgresRateLimitStore(s.db!);
    await a.hit('k-win', [{ seconds: 60, limit: 60 }], now);
    expect((await a.hit('k-win', [{ seconds: 60, limit: 60 }], now + 60_000))[0]).toEqual({
      hits: 1,
      resetAt: Math.floor(now / 60_000) * 60 + 120,
    });
  });
});

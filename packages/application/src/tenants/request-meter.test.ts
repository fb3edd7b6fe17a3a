import { describe, expect, it } from 'vitest';
import type { ApiKeyUsageDelta } from '@fundi/domain';
import { RequestMeter } from './request-meter.js';

describe('RequestMeter', () => {
  const at = Date.parse('2026-11-23T23:59:59.000Z');

  it('adds up requests per key and day and writes them in one batch on flush', async () => {
    const batches: ApiKeyUsageDelta[][] = [];
    const m = new RequestMeter({ add: async (d) => void batches.push(d.map((x) => ({ ...x }))) }, 60_000);
    m.count('ten_1', 'key_a', at);
    m.count('ten_1', 'key_a', at + 500);
    m.count('ten_1', 'key_b', at);
    m.count('ten_1', 'key_a', at + 1000); // the next UTC day
    await m.flush();
    expect(batches).toEqual([
      [
        { tenantId: 'ten_1', keyId: 'key_a', day: '2026-11-23', requests: 2, lastUsedAt: '2026-11-23T23:59:59.500Z' },
        { tenantId: 'ten_1', keyId: 'key_b', day: '2026-11-23', requests: 1, lastUsedAt: '2026-11-23T23:59:59.000Z' },
        { tenantId: 'ten_1', keyId: 'key_a', day: '2026-11-24', requests: 1, lastUsedAt: '2026-11-24T00:00:00.000Z' },
      ],
    ]);
    await m.flush();
    expect(batches.length).toBe(1);
  });

  it('keeps the counts when the store fails, and writes them with the next flush', async () => {
    let fail = true;
    const written: ApiKeyUsageDelta[] = [];
    const m = new RequestMeter(
      {
        add: async (d) => {
          if (fail) throw new Error('database down');
          written.push(...d);
        },
      },
      60_000,
    );
    m.count('ten_1', 'key_a', at);
    await expect(m.flush()).rejects.toThrow('database down');
    m.count('ten_1', 'key_a', at);
    fail = false;
    await m.flush();
    expect(written).toMatchObject([{ keyId: 'key_a', requests: 2 }]);
  });

  it('flushes by itself after the interval', async () => {
    const written: ApiKeyUsageDelta[] = [];
    const m = new RequestMeter({ add: async (d) => void written.push(...d) }, 20);
    m.count('ten_1', 'key_a', at);
    await new Promise((r) => setTimeout(r, 80));
    expect(written).toMatchObject([{ keyId: 'key_a', requests: 1 }]);
  });
});

import type { ApiKeyUsageDelta, ApiKeyUsageRepository } from '@fundi/domain';

/** The UTC day (YYYY-MM-DD) of a time in milliseconds. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Counts authenticated requests per API key and day in this process and adds them to the store in one statement
 * every `flushMs` (docs/api.md, "Usage"): no database write on the request path, and several processes add up.
 * A crash loses at most the last `flushMs` of counts.
 */
export class RequestMeter {
  private pending = new Map<string, ApiKeyUsageDelta>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly usage: Pick<ApiKeyUsageRepository, 'add'>,
    private readonly flushMs = 2000,
  ) {}

  count(tenantId: string, keyId: string, nowMs: number): void {
    const day = utcDay(nowMs);
    const id = `${keyId}|${day}`;
    const at = new Date(nowMs).toISOString();
    const row = this.pending.get(id);
    if (row) {
      row.requests++;
      if (at > row.lastUsedAt) row.lastUsedAt = at;
    } else this.pending.set(id, { tenantId, keyId, day, requests: 1, lastUsedAt: at });
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush().catch(() => {}), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes what was counted so far (before a read of the totals, and at shutdown). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const run = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending.values()];
      this.pending = new Map();
      try {
        await this.usage.add(batch);
      } catch (e) {
        // Keep the counts for the next flush rather than lose them.
        for (const d of batch) {
          const row = this.pending.get(`${d.keyId}|${d.day}`);
          if (row) row.requests += d.requests;
          else this.pending.set(`${d.keyId}|${d.day}`, d);
        }
        throw e;
      }
    });
    this.flushing = run.catch(() => {});
    return run;
  }
}

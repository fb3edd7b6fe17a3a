import type { ApiKeyUsageDelta, ApiKeyUsageRepository } from '@fundi/domain';

/** The UTC day (YYYY-MM-DD) of a time in milliseconds. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const DAY_MS = 86_400_000;

type Counted = Omit<ApiKeyUsageDelta, 'lastUsedAt'> & { lastUsedMs: number };

/**
 * Counts authenticated requests per API key and day in this process and adds them to the store in one statement
 * every `flushMs` (docs/api.md, "Usage"): no database write on the request path, and several processes add up.
 * A crash loses at most the last `flushMs` of counts.
 */
export class RequestMeter {
  private pending = new Map<string, Counted>();
  private timer: NodeJS.Timeout | null = null;
  /** The UTC day of the last count and where it ends (ms): the day string is made once a day, not per request. */
  private day = '';
  private dayEnds = 0;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly usage: Pick<ApiKeyUsageRepository, 'add'>,
    private readonly flushMs = 2000,
  ) {}

  count(tenantId: string, keyId: string, nowMs: number): void {
    if (nowMs >= this.dayEnds || nowMs < this.dayEnds - DAY_MS) {
      this.day = utcDay(nowMs);
      this.dayEnds = Date.parse(`${this.day}T00:00:00.000Z`) + DAY_MS;
    }
    const id = `${keyId}|${this.day}`;
    const row = this.pending.get(id);
    if (row) {
      row.requests++;
      if (nowMs > row.lastUsedMs) row.lastUsedMs = nowMs;
    } else this.pending.set(id, { tenantId, keyId, day: this.day, requests: 1, lastUsedMs: nowMs });
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
      const counted = [...this.pending.values()];
      this.pending = new Map();
      const batch: ApiKeyUsageDelta[] = counted.map(({ lastUsedMs, ...d }) => ({
        ...d,
        lastUsedAt: new Date(lastUsedMs).toISOString(),
      }));
      try {
        await this.usage.add(batch);
      } catch (e) {
        // Keep the counts for the next flush rather than lose them.
        for (const d of counted) {
          const row = this.pending.get(`${d.keyId}|${d.day}`);
          if (row) {
            row.requests += d.requests;
            row.lastUsedMs = Math.max(row.lastUsedMs, d.lastUsedMs);
          } else this.pending.set(`${d.keyId}|${d.day}`, d);
        }
        throw e;
      }
    });
    this.flushing = run.catch(() => {});
    return run;
  }
}

import type { RateLimitStore, RateWindow, WindowCount } from '@fundi/application';
import { DomainError, isStorageUnavailable } from '@fundi/domain';
import type { SqlDb } from '../db/sql-db.js';

const windowStart = (now: number, seconds: number) => Math.floor(now / 1000 / seconds) * seconds;

interface Slot {
  seconds: number;
  start: number;
  hits: number;
}

/** Counters in this process only: right for the embedded default (one server process). */
export class MemoryRateLimitStore implements RateLimitStore {
  /** Each key's windows (a key has one or two): found by the key alone, with no name built per request. */
  private readonly counts = new Map<string, Slot[]>();
  private sweeps = 0;

  async hit(key: string, windows: readonly RateWindow[], now: number): Promise<WindowCount[]> {
    if (++this.sweeps % 10_000 === 0) this.sweep(now);
    let slots = this.counts.get(key);
    if (!slots) {
      slots = [];
      this.counts.set(key, slots);
    }
    const out: WindowCount[] = new Array(windows.length);
    for (let i = 0; i < windows.length; i++) {
      const seconds = windows[i]!.seconds;
      const start = windowStart(now, seconds);
      let c = slots.find((x) => x.seconds === seconds);
      if (!c) {
        c = { seconds, start, hits: 0 };
        slots.push(c);
      } else if (c.start !== start) {
        c.start = start;
        c.hits = 0;
      }
      c.hits++;
      out[i] = { hits: c.hits, resetAt: start + seconds };
    }
    return out;
  }

  private sweep(now: number): void {
    for (const [key, slots] of this.counts) {
      const live = slots.filter((c) => c.start + c.seconds >= now / 1000);
      if (live.length === 0) this.counts.delete(key);
      else if (live.length < slots.length) this.counts.set(key, live);
    }
  }
}

interface Reserve {
  start: number;
  /** The shared count this process is at, including what it has taken locally. */
  hits: number;
  /** Counts taken from the shared counter and not yet used. */
  left: number;
}

/**
 * Counters shared by every process on one Postgres. Each process takes counts from the shared row in
 * chunks of 0.1% of the limit (at least 1) and spends them locally, so a small limit (60/min: chunk 1) is
 * exact across processes, while a huge one costs one upsert per chunk instead of one per request. The limit is
 * never exceeded; another process may be refused up to (processes x chunk) requests early.
 */
export class PostgresRateLimitStore implements RateLimitStore {
  private calls = 0;
  private readonly reserves = new Map<string, Reserve>();

  constructor(private readonly db: SqlDb) {}

  async hit(key: string, windows: readonly RateWindow[], now: number): Promise<WindowCount[]> {
    if (++this.calls % 5_000 === 0) this.sweep(now);
    const ids = windows.map((w) => `${key}|${w.seconds}`);
    const starts = windows.map((w) => windowStart(now, w.seconds));
    const counts: number[] = [];
    const missing: number[] = [];
    windows.forEach((_, i) => {
      // Spent synchronously, so concurrent requests of this process never take the same local count.
      const r = this.reserves.get(ids[i]!);
      if (r && r.start === starts[i] && r.left > 0) {
        r.left--;
        counts[i] = ++r.hits;
      } else {
        missing.push(i);
      }
    });
    if (missing.length) await this.take(windows, ids, starts, missing, counts);
    return windows.map((w, i) => ({ hits: counts[i]!, resetAt: starts[i]! + w.seconds }));
  }

  /** One upsert takes a chunk for every window without local counts; the first count is this request's. */
  private async take(
    windows: readonly RateWindow[],
    ids: string[],
    starts: number[],
    missing: number[],
    counts: number[],
  ): Promise<void> {
    const chunk = (i: number) => Math.max(1, Math.floor(windows[i]!.limit / 1000));
    const rows = await this.db
      .all<{ key: string; hits: number }>(
        `INSERT INTO rate_limit_counters (key, window_start, hits, expires_at) VALUES ${missing.map(() => '(?, ?, ?, ?)').join(', ')}
       ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit_counters.hits + EXCLUDED.hits RETURNING key, hits`,
        missing.flatMap((i) => [ids[i]!, starts[i]!, chunk(i), starts[i]! + windows[i]!.seconds]),
      )
      .catch((e: unknown) => {
        // Whether a lost counter update counted is nobody's concern: the request it counted changed nothing yet.
        throw isStorageUnavailable(e) ? DomainError.storageUnavailable(e.cause) : e;
      });
    for (const i of missing) {
      const total = Number(rows.find((r) => r.key === ids[i])?.hits ?? chunk(i));
      counts[i] = total - chunk(i) + 1;
      const current = this.reserves.get(ids[i]!);
      if (chunk(i) > 1 && !(current && current.start === starts[i] && current.left > 0)) {
        this.reserves.set(ids[i]!, { start: starts[i]!, hits: counts[i]!, left: chunk(i) - 1 });
      }
    }
  }

  async pruneExpired(now: number, limit: number): Promise<number> {
    // Few rows (the windows of the last day at most, once pruned hourly): no index of their own.
    const pick = 'SELECT key, window_start FROM rate_limit_counters WHERE expires_at < ? LIMIT ?';
    const { changes } = await this.db.run(`DELETE FROM rate_limit_counters WHERE (key, window_start) IN (${pick})`, [
      Math.floor(now / 1000),
      limit,
    ]);
    return changes;
  }

  private sweep(now: number): void {
    const nowSec = Math.floor(now / 1000);
    for (const [id, r] of this.reserves)
      if (r.start + Number(id.slice(id.lastIndexOf('|') + 1)) < nowSec) this.reserves.delete(id);
    void this.db.run('DELETE FROM rate_limit_counters WHERE expires_at < ?', [nowSec]).catch(() => {});
  }
}

import type { RateLimitStore, RateWindow, WindowCount } from '@fundi/application';
import type { SqlDb } from '../db/sql-db.js';

const windowStart = (now: number, seconds: number) => Math.floor(now / 1000 / seconds) * seconds;

/** Counters in this process only: right for the embedded default (one server process). */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counts = new Map<string, { start: number; hits: number }>();
  private sweeps = 0;

  async hit(key: string, windows: readonly RateWindow[], now: number): Promise<WindowCount[]> {
    if (++this.sweeps % 10_000 === 0) this.sweep(now);
    return windows.map((w) => {
      const start = windowStart(now, w.seconds);
      const id = `${key}|${w.seconds}`;
      let c = this.counts.get(id);
      if (!c || c.start !== start) {
        c = { start, hits: 0 };
        this.counts.set(id, c);
      }
      c.hits++;
      return { hits: c.hits, resetAt: start + w.seconds };
    });
  }

  private sweep(now: number): void {
    for (const [id, c] of this.counts) {
      const seconds = Number(id.slice(id.lastIndexOf('|') + 1));
      if (c.start + seconds < now / 1000) this.counts.delete(id);
    }
  }
}

/** Counters shared by every process on one Postgres (D2): one upsert per request covers all its windows. */
export class PostgresRateLimitStore implements RateLimitStore {
  private hits = 0;
  constructor(private readonly db: SqlDb) {}

  async hit(key: string, windows: readonly RateWindow[], now: number): Promise<WindowCount[]> {
    if (++this.hits % 5_000 === 0) {
      void this.db.run('DELETE FROM rate_limit_counters WHERE expires_at < ?', [Math.floor(now / 1000)]).catch(() => {});
    }
    const values = windows.map(() => '(?, ?, 1, ?)').join(', ');
    const bindings = windows.flatMap((w) => {
      const start = windowStart(now, w.seconds);
      return [`${key}|${w.seconds}`, start, start + w.seconds];
    });
    const rows = await this.db.all<{ key: string; hits: number }>(
      `INSERT INTO rate_limit_counters (key, window_start, hits, expires_at) VALUES ${values}
       ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1 RETURNING key, hits`,
      bindings,
    );
    return windows.map((w) => {
      const row = rows.find((r) => r.key === `${key}|${w.seconds}`);
      return { hits: Number(row?.hits ?? 1), resetAt: windowStart(now, w.seconds) + w.seconds };
    });
  }
}

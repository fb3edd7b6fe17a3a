import type { RateLimitStore, RateWindow } from '@fundi/application';
import { DomainError, type TenantLimits } from '@fundi/domain';
import type { Context } from 'koa';

function windowsOf(limits: Pick<TenantLimits, 'perMinute' | 'perDay'>): RateWindow[] {
  const w: RateWindow[] = [{ seconds: 60, limit: limits.perMinute }];
  if (limits.perDay !== null) w.push({ seconds: 86_400, limit: limits.perDay });
  return w;
}

/**
 * Counts the request and sets the rate-limit headers for the window nearest to exhaustion (the exceeded one when
 * there is one). Throws `rate_limited` with `Retry-After` when any window is over its limit.
 */
export async function applyRateLimit(
  ctx: Context,
  store: RateLimitStore,
  key: string,
  limits: Pick<TenantLimits, 'perMinute' | 'perDay'>,
  nowMs: number,
): Promise<void> {
  const windows = windowsOf(limits);
  const counts = await store.hit(key, windows, nowMs);
  let pick = 0;
  let least = Infinity;
  counts.forEach((c, i) => {
    const remaining = windows[i]!.limit - c.hits;
    if (remaining < least) {
      least = remaining;
      pick = i;
    }
  });
  const w = windows[pick]!;
  const c = counts[pick]!;
  ctx.set('X-RateLimit-Limit', String(w.limit));
  ctx.set('X-RateLimit-Remaining', String(Math.max(0, w.limit - c.hits)));
  ctx.set('X-RateLimit-Reset', String(c.resetAt));
  if (c.hits > w.limit) {
    const retryAfter = Math.max(1, c.resetAt - Math.floor(nowMs / 1000));
    ctx.set('Retry-After', String(retryAfter));
    throw new DomainError(
      'rate_limited',
      'rate_limited',
      `Rate limit of ${w.limit} requests per ${w.seconds === 60 ? 'minute' : 'day'} exceeded; retry in ${retryAfter} s`,
    );
  }
}

import type { RateLimitStore, RateWindow } from '@fundi/application';
import { DomainError, type TenantLimits } from '@fundi/domain';
import type { Context } from 'koa';

type Limits = Pick<TenantLimits, 'perMinute' | 'perDay'>;

/** The windows of a limits object, made once per object (a key's limits come with its cached resolution). */
const windowsCache = new WeakMap<Limits, RateWindow[]>();
function windowsOf(limits: Limits): RateWindow[] {
  let w = windowsCache.get(limits);
  if (!w) {
    w = [{ seconds: 60, limit: limits.perMinute }];
    if (limits.perDay !== null) w.push({ seconds: 86_400, limit: limits.perDay });
    windowsCache.set(limits, w);
  }
  return w;
}

/** A window's limit as header text, made once per window (windows are made once per limits object). */
const limitTexts = new WeakMap<RateWindow, string>();
function limitText(w: RateWindow): string {
  let t = limitTexts.get(w);
  if (t === undefined) {
    t = String(w.limit);
    limitTexts.set(w, t);
  }
  return t;
}

/** A reset time as header text; the last one is kept, since a window's reset stays the same for its length. */
let lastReset = { at: -1, text: '' };
function resetText(at: number): string {
  if (lastReset.at !== at) lastReset = { at, text: String(at) };
  return lastReset.text;
}

/**
 * Counts the request and sets the rate-limit headers for the window nearest to exhaustion (the exceeded one when
 * there is one). Throws `rate_limited` with `Retry-After` when any window is over its limit.
 */
export async function applyRateLimit(
  ctx: Context,
  store: RateLimitStore,
  key: string,
  limits: Limits,
  nowMs: number,
): Promise<void> {
  const windows = windowsOf(limits);
  const counts = await store.hit(key, windows, nowMs);
  let pick = 0;
  let least = Infinity;
  for (let i = 0; i < counts.length; i++) {
    const remaining = windows[i]!.limit - counts[i]!.hits;
    if (remaining < least) {
      least = remaining;
      pick = i;
    }
  }
  const w = windows[pick]!;
  const c = counts[pick]!;
  const res = ctx.res;
  res.setHeader('X-RateLimit-Limit', limitText(w));
  res.setHeader('X-RateLimit-Remaining', String(Math.max(0, w.limit - c.hits)));
  res.setHeader('X-RateLimit-Reset', resetText(c.resetAt));
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

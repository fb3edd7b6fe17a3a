import type { DashboardDeps } from './dashboard-deps.js';

const WINDOW_SECONDS = 15 * 60;

/** An attempt over a limit: when the later of its windows resets (seconds since the epoch). */
export type OverLimit = (
  ip: string,
  accountKey: string,
  perAccount: number,
  now: number,
) => Promise<{ resetAt: number } | null>;

/** The sign-in limits (per client address, per account) and the counter of attempts against them. */
export function signInAttempts(d: DashboardDeps): {
  limits: { perAddress: number; perAccount: number };
  overLimit: OverLimit;
} {
  // An office behind one address signs in many people; an account is guessed at from anywhere.
  const limits = d.signInLimits ?? { perAddress: 100, perAccount: 20 };

  /**
   * Counts one attempt against the client address (shared by sign-in and password reset) and against `accountKey`;
   * answers when the later of the two windows resets if either is over its limit, else null.
   */
  const overLimit = async (ip: string, accountKey: string, perAccount: number, now: number) => {
    const [byAddress] = await d.rateLimits.hit(
      `signin:ip:${ip}`,
      [{ seconds: WINDOW_SECONDS, limit: limits.perAddress }],
      now,
    );
    const [byAccount] = await d.rateLimits.hit(accountKey, [{ seconds: WINDOW_SECONDS, limit: perAccount }], now);
    return byAddress!.hits > limits.perAddress || byAccount!.hits > perAccount
      ? { resetAt: Math.max(byAddress!.resetAt, byAccount!.resetAt) }
      : null;
  };
  return { limits, overLimit };
}

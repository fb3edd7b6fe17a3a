import type { WebhookSubscriptionSnapshot } from './subscription.js';

/** How long the old secret keeps signing after a rotation. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The sealed secrets that sign a delivery at `now`: the current one first, then the previous one in its overlap. */
export function signingSecrets(
  s: Pick<WebhookSubscriptionSnapshot, 'secretCiphertext' | 'previousSecretCiphertext' | 'previousSecretExpiresAt'>,
  now: Date,
): string[] {
  const old = s.previousSecretCiphertext && s.previousSecretExpiresAt && now.toISOString() < s.previousSecretExpiresAt;
  return old ? [s.secretCiphertext, s.previousSecretCiphertext!] : [s.secretCiphertext];
}

/** A subscription's sealed signing secrets: the current one, and the one before the last rotation in its overlap. */
export interface SubscriptionSecrets {
  /** The signing secret, sealed by a SecretBox; never leaves the service after creation or rotation. */
  secretCiphertext: string;
  /** The secret before the last rotation, still signing beside the new one until `previousSecretExpiresAt`. */
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: string | null;
}

/** How long the old secret keeps signing after a rotation. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The sealed secrets that sign a delivery at `now`: the current one first, then the previous one in its overlap. */
export function signingSecrets(s: SubscriptionSecrets, now: Date): string[] {
  const old = s.previousSecretCiphertext && s.previousSecretExpiresAt && now.toISOString() < s.previousSecretExpiresAt;
  return old ? [s.secretCiphertext, s.previousSecretCiphertext!] : [s.secretCiphertext];
}

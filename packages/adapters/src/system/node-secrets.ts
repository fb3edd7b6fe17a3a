import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecretGenerator } from '@fundi/domain';

const KEY_PREFIX = 'fnd_live_';

/**
 * API keys are `fnd_live_` + 32 characters of base64url (192 random bits). Such keys cannot be guessed, so a
 * plain SHA-256 is a sufficient lookup hash; the first 13 characters are kept for recognition.
 */
export class NodeSecretGenerator implements SecretGenerator {
  newApiKey(): { key: string; prefix: string; hash: string } {
    const key = KEY_PREFIX + randomBytes(24).toString('base64url');
    return { key, prefix: key.slice(0, KEY_PREFIX.length + 4), hash: this.hash(key) };
  }

  hash(secret: string): string {
    return createHash('sha256').update(secret).digest('hex');
  }
}

/** Tamper-evident tokens (cursors now; signed URLs later): `payload.signature`, both base64url. */
export class TokenSigner {
  constructor(private readonly key: Buffer) {}

  sign(payload: string, purpose: string): string {
    return `${Buffer.from(payload).toString('base64url')}.${this.mac(payload, purpose)}`;
  }

  /** The payload, or `null` when the token is malformed or its signature does not match. */
  verify(token: string, purpose: string): string | null {
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const encoded = token.slice(0, dot);
    const signature = token.slice(dot + 1);
    const payload = Buffer.from(encoded, 'base64url').toString();
    const given = Buffer.from(signature, 'base64url');
    // Only the canonical spelling is accepted: base64 ignores the spare bits of a last character, so another
    // character there would decode to the same signature and let an altered token through.
    if (given.toString('base64url') !== signature || Buffer.from(payload).toString('base64url') !== encoded)
      return null;
    const expected = Buffer.from(this.mac(payload, purpose), 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected) ? payload : null;
  }

  private mac(payload: string, purpose: string): string {
    return createHmac('sha256', this.key)
      .update(purpose)
      .update('\0')
      .update(payload)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }
}

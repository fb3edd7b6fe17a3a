import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { SecretBox } from '@fundi/domain';

const VERSION = 'v1';

/**
 * AES-256-GCM under a key derived from the service master key with HKDF-SHA256 and a purpose label (`info`), so
 * each use (webhook secrets, file keys) has its own key and a ciphertext of one cannot be opened as the other.
 * Sealed form: `v1.<iv>.<ciphertext+tag>`, base64url; a fresh 96-bit IV per seal.
 */
export class AesGcmSecretBox implements SecretBox {
  private readonly key: Buffer;
  /** Keys derived from previous master keys: they still open what they sealed until it is sealed again. */
  private readonly previous: Buffer[];

  constructor(masterKey: Buffer, purpose: string, previousMasterKeys: readonly Buffer[] = []) {
    for (const k of [masterKey, ...previousMasterKeys])
      if (k.length !== 32) throw new Error('The master key must be 32 bytes');
    const derive = (k: Buffer) => Buffer.from(hkdfSync('sha256', k, Buffer.alloc(0), purpose, 32));
    this.key = derive(masterKey);
    this.previous = previousMasterKeys.map(derive);
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  open(sealed: string): string {
    const [version, ivText, bodyText] = sealed.split('.');
    if (version !== VERSION || !ivText || !bodyText) throw new Error('Not a sealed secret');
    const body = Buffer.from(bodyText, 'base64url');
    const iv = Buffer.from(ivText, 'base64url');
    for (const key of [this.key, ...this.previous]) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAuthTag(body.subarray(body.length - 16));
        return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
      } catch {
        // Sealed under another master key: try the next one.
      }
    }
    throw new Error('The sealed secret does not open with the configured master keys');
  }

  /** Whether `sealed` was sealed under the current master key (false: seal it again after a rotation). */
  isCurrent(sealed: string): boolean {
    const [, ivText, bodyText] = sealed.split('.');
    if (!ivText || !bodyText) return false;
    const body = Buffer.from(bodyText, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(ivText, 'base64url'));
      decipher.setAuthTag(body.subarray(body.length - 16));
      decipher.update(body.subarray(0, body.length - 16));
      decipher.final();
      return true;
    } catch {
      return false;
    }
  }
}

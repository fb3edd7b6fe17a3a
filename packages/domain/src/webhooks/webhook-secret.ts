import { DomainError } from '../common/errors.js';

/** The `whsec_` form of a Standard Webhooks secret: the prefix, then the key in base64. */
const WHSEC = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/** A caller-chosen secret: 16 to 256 printable characters; one in the `whsec_` form must carry valid base64. */
export function parseWebhookSecret(value: unknown, field = 'secret'): string {
  if (typeof value !== 'string' || value.length < 16 || value.length > 256 || !/^[\x20-\x7e]+$/.test(value)) {
    throw DomainError.invalid(field, 'must be 16 to 256 printable ASCII characters');
  }
  if (value.startsWith('whsec_') && !WHSEC.test(value))
    throw DomainError.invalid(field, 'a whsec_ secret must be followed by base64');
  return value;
}

/** The Standard Webhooks key (the base64-decoded part after `whsec_`), or null for a secret without that form. */
export function standardWebhooksKey(secret: string): string | null {
  const m = WHSEC.exec(secret);
  return m ? m[1]! : null;
}

/** `whsec_` + base64 of 32 random bytes, the form Standard Webhooks libraries expect. */
export function generateWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import type { OutgoingWebhook } from '@fundi/application/webhooks';
import { standardWebhooksKey } from '@fundi/domain/webhooks';

// Key objects are made once per secret: every delivery of a subscription signs with the same few keys.
const keys = new Map<string, KeyObject>();
function keyOf(material: string, encoding: 'utf8' | 'base64'): KeyObject {
  const id = `${encoding}:${material}`;
  let k = keys.get(id);
  if (!k) {
    if (keys.size > 10_000) keys.clear();
    k = createSecretKey(Buffer.from(material, encoding));
    keys.set(id, k);
  }
  return k;
}

/** Lowercase hex HMAC-SHA256 of the raw body, keyed with the secret string's UTF-8 bytes (whsec_ included). */
export function hexSignature(secret: string, body: string): string {
  return createHmac('sha256', keyOf(secret, 'utf8')).update(body).digest('hex');
}

/** Standard Webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the base64-decoded whsec_ part. */
export function standardSignature(key: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(key, 'base64')).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * Every header of a delivery. With two secrets (the 24 h after a rotation) `webhook-signature` lists both
 * signatures, new first, space-separated as the standard allows; the hex header carries the new secret's and
 * `X-Webhook-Signature-Previous` the old one's. A secret without the whsec_ form signs only the hex headers.
 */
export function webhookHeaders(w: OutgoingWebhook): Record<string, string> {
  const [current, previous] = w.secrets;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Fundi-Webhooks/1.0',
    'x-webhook-id': w.eventId,
    'x-webhook-event': w.eventType,
    'x-webhook-signature': hexSignature(current!, w.body),
    'webhook-id': w.eventId,
    'webhook-timestamp': String(w.timestamp),
  };
  if (previous) headers['x-webhook-signature-previous'] = hexSignature(previous, w.body);
  const standard = w.secrets
    .map(standardWebhooksKey)
    .filter((k): k is string => k !== null)
    .map((k) => standardSignature(k, w.eventId, w.timestamp, w.body));
  if (standard.length) headers['webhook-signature'] = standard.join(' ');
  return headers;
}

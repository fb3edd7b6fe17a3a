import { Readable } from 'node:stream';
import type { NotificationUseCases } from '@fundi/application/notifications';
import { DomainError } from '@fundi/domain';
import { route, type IncomingFile } from '../routes/route.js';
import { CallbackOut, HandshakeQuery } from './notification-schemas.js';

const tag = 'Notifications';
const CALLBACK_MAX = 1024 * 1024;

async function readAll(file: IncomingFile | undefined): Promise<Buffer> {
  if (!file) throw DomainError.invalid('body', 'is required');
  const parts: Buffer[] = [];
  for await (const c of file.stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

const header = (h: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The providers' callbacks (docs/api.md, "Notifications"): WhatsApp's handshake and statuses, email reports. */
export function notificationCallbackRoutes(u: NotificationUseCases) {
  const callbacks = u.notificationCallbacks;
  return [
    route({
      operationId: 'whatsAppCallbackHandshake',
      summary: 'WhatsApp webhook verification (hub.challenge)',
      description: 'Answers `hub.challenge` as text when `hub.verify_token` matches; 403 otherwise.',
      tag,
      method: 'get',
      path: '/notifications/callbacks/whatsapp',
      auth: 'none',
      scope: undefined,
      inbound: true,
      query: HandshakeQuery,
      errors: [403],
      success: { status: 200, file: { contentTypes: ['text/plain'] }, description: 'The challenge' },
      handle: async ({ query, tenantSlug }) => {
        const challenge = await callbacks.whatsAppHandshake.execute(query, tenantSlug);
        return {
          contentType: 'text/plain; charset=utf-8',
          size: Buffer.byteLength(challenge),
          open: () => Readable.from([Buffer.from(challenge)]),
        };
      },
    }),
    route({
      operationId: 'whatsAppCallback',
      summary: 'WhatsApp message status callback',
      description:
        'Signed by the provider: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body, keyed with the app secret>`. 401 when missing or wrong. Statuses only move forward; unknown message ids change nothing.',
      tag,
      method: 'post',
      path: '/notifications/callbacks/whatsapp',
      auth: 'none',
      scope: undefined,
      inbound: true,
      upload: {
        kind: 'raw',
        maxBytes: CALLBACK_MAX,
        contentTypes: ['application/json'],
        description: 'The provider JSON',
      },
      errors: [401],
      success: {
        status: 200,
        schema: CallbackOut,
        description: 'How many statuses came and how many changed a notification',
      },
      handle: async ({ file, headers }) =>
        callbacks.whatsAppCallback.execute(await readAll(file), header(headers, 'x-hub-signature-256')),
    }),
    route({
      operationId: 'emailCallback',
      summary: 'Email delivery reports: JSON events or a raw RFC 3464 delivery-status message',
      description:
        'Signed with the tenant\'s callback secret: `X-Fundi-Signature: sha256=<hex HMAC-SHA256 of the raw body>`, checked before any message is looked up: a missing or wrong signature is 401 whatever the body names. Form B checks it against the tenant of the path; Form A against the tenant whose message the first known report names (a call naming no known message is 401). JSON: `{"events":[{"messageId","event":"delivered|opened|bounced","bounceType":"hard|soft","timestamp","detail"}]}`. See docs/api.md, "Notifications".',
      tag,
      method: 'post',
      path: '/notifications/callbacks/email',
      auth: 'none',
      scope: undefined,
      inbound: true,
      upload: {
        kind: 'raw',
        maxBytes: CALLBACK_MAX,
        contentTypes: [
          'application/json',
          'multipart/report',
          'message/delivery-status',
          'message/rfc822',
          'text/plain',
        ],
        description: 'JSON events or a delivery status notification',
      },
      errors: [401],
      success: {
        status: 200,
        schema: CallbackOut,
        description: 'How many reports came and how many changed a notification',
      },
      handle: async ({ file, headers, tenantSlug }) =>
        callbacks.emailCallback.execute(
          await readAll(file),
          file?.declaredType ?? null,
          header(headers, 'x-fundi-signature'),
          tenantSlug,
        ),
    }),
  ];
}

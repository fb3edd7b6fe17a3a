import { Readable } from 'node:stream';
import type { NotificationUseCases } from '@fundi/application';
import { DomainError } from '@fundi/domain';
import { IdParams } from '../schemas/common.js';
import { TokenParams } from '../schemas/evidence-schemas.js';
import { route, type IncomingFile, type RouteDef } from '../routes/route.js';
import {
  BulkNotificationIn,
  BulkNotificationOut,
  CallbackOut,
  CallbackSecretOut,
  HandshakeQuery,
  NotificationIn,
  NotificationListQuery,
  NotificationOut,
  PreviewIn,
  PreviewOut,
  SettingsIn,
  SettingsOut,
  TemplateIn,
  TemplateKeyParams,
  TemplateListOut,
  TemplateOut,
  TestEmailIn,
  TestEmailOut,
  UnsubscribeOut,
} from './notification-schemas.js';

const tag = 'Notifications';
const CALLBACK_MAX = 1024 * 1024;
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

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

const page = (html: string) => ({
  contentType: 'text/html; charset=utf-8',
  size: Buffer.byteLength(html),
  open: () => Readable.from([Buffer.from(html)]),
});

/** Notifications (docs/api.md, "Notifications"): sends, status, templates, settings, callbacks, pixel, unsubscribe. */
export function notificationRoutes(u: NotificationUseCases): RouteDef[] {
  const n = u.notifications;
  const callbacks = u.notificationCallbacks;
  const templates = u.notificationTemplates;
  const settings = u.notificationSettings;
  return [
    route({
      operationId: 'sendNotification',
      summary: 'Send a notification to a staff user or a learner',
      description:
        '202 with the record: `queued` (the worker sends it), or `skipped` with the reason in its history (opted out, no WhatsApp consent, no address). An unknown template, a template without a version for the channel, or a missing or unknown variable is invalid input naming it.',
      tag,
      method: 'post',
      path: '/notifications',
      scope: 'notifications:write',
      body: NotificationIn,
      actors: true,
      success: { status: 202, schema: NotificationOut, description: 'The notification' },
      errors: [404],
      handle: ({ actor, body }) => n.send(actor, body),
    }),
    route({
      operationId: 'sendBulkNotifications',
      summary: 'Send one template to many recipients (at most 1,000)',
      description:
        'Every id must be a staff user or a learner of the tenant, or nothing is sent (each unknown id named).',
      tag,
      method: 'post',
      path: '/notifications/bulk',
      scope: 'notifications:write',
      body: BulkNotificationIn,
      actors: true,
      success: { status: 202, schema: BulkNotificationOut, description: 'One notification per recipient, in order' },
      handle: ({ actor, body }) => n.sendBulk(actor, body),
    }),
    route({
      operationId: 'listNotifications',
      summary: 'List notifications',
      tag,
      method: 'get',
      path: '/notifications',
      scope: 'notifications:read',
      query: NotificationListQuery,
      actors: true,
      list: { item: NotificationOut },
      success: { status: 200, description: 'A page of notifications, oldest first' },
      handle: ({ actor, query, page: p }) => n.list(actor, query, p),
    }),
    route({
      operationId: 'getNotification',
      summary: 'A notification: its status and history',
      tag,
      method: 'get',
      path: '/notifications/{id}',
      scope: 'notifications:read',
      params: IdParams,
      actors: true,
      success: { status: 200, schema: NotificationOut, description: 'The notification' },
      errors: [404],
      handle: ({ actor, params }) => n.get(actor, params.id),
    }),
    route({
      operationId: 'listNotificationTemplates',
      summary: 'Every template, with its channels and whether the tenant overrides it',
      tag,
      method: 'get',
      path: '/notification-templates',
      scope: 'notifications:read',
      success: { status: 200, schema: TemplateListOut, description: 'The templates' },
      handle: ({ actor }) => templates.listTemplates(actor),
    }),
    route({
      operationId: 'getNotificationTemplate',
      summary: 'A template as the tenant sends it (its override, or the default)',
      tag,
      method: 'get',
      path: '/notification-templates/{key}',
      scope: 'notifications:read',
      params: TemplateKeyParams,
      success: { status: 200, schema: TemplateOut, description: 'The template' },
      handle: ({ actor, params }) => templates.getTemplate(actor, params.key),
    }),
    route({
      operationId: 'putNotificationTemplate',
      summary: "Set the tenant's own email version of a template (admins)",
      description: 'Every part must compile and name only the variables the template lists.',
      tag,
      method: 'put',
      path: '/notification-templates/{key}',
      scope: 'notifications:write',
      params: TemplateKeyParams,
      body: TemplateIn,
      success: { status: 200, schema: TemplateOut, description: 'The template as stored' },
      handle: ({ actor, params, body }) => templates.putTemplate(actor, params.key, body),
    }),
    route({
      operationId: 'resetNotificationTemplate',
      summary: 'Back to the default version (admins)',
      tag,
      method: 'delete',
      path: '/notification-templates/{key}',
      scope: 'notifications:delete',
      params: TemplateKeyParams,
      success: { status: 204, description: 'The default applies' },
      handle: ({ actor, params }) => templates.resetTemplate(actor, params.key),
    }),
    route({
      operationId: 'previewNotificationTemplate',
      summary: 'Render a template (or a draft of it) with sample values',
      tag,
      method: 'post',
      path: '/notification-templates/{key}/preview',
      scope: 'notifications:read',
      params: TemplateKeyParams,
      body: PreviewIn,
      success: { status: 200, schema: PreviewOut, description: 'The rendered email' },
      handle: ({ actor, params, body }) => templates.preview(actor, params.key, body),
    }),
    route({
      operationId: 'getNotificationSettings',
      summary: 'Trigger switches, SMTP and WhatsApp settings (secrets never shown)',
      tag,
      method: 'get',
      path: '/notification-settings',
      scope: 'notifications:read',
      success: { status: 200, schema: SettingsOut, description: 'The settings' },
      handle: ({ actor }) => settings.getSettings(actor),
    }),
    route({
      operationId: 'putNotificationSettings',
      summary: 'Change trigger switches, SMTP or WhatsApp settings (admins)',
      tag,
      method: 'put',
      path: '/notification-settings',
      scope: 'notifications:write',
      body: SettingsIn,
      success: { status: 200, schema: SettingsOut, description: 'The settings as stored' },
      handle: ({ actor, body }) => settings.putSettings(actor, body as Record<string, unknown>),
    }),
    route({
      operationId: 'sendTestEmail',
      summary: "Send a test email through the tenant's mail settings now (admins)",
      tag,
      method: 'post',
      path: '/notification-settings/smtp/test',
      scope: 'notifications:write',
      body: TestEmailIn,
      success: { status: 200, schema: TestEmailOut, description: 'What the mail server said' },
      handle: ({ actor, body }) => settings.sendTestEmail(actor, body.to),
    }),
    route({
      operationId: 'rotateNotificationCallbackSecret',
      summary: 'A new secret for signed email callbacks, shown once (admins)',
      tag,
      method: 'post',
      path: '/notification-settings/callback-secret',
      scope: 'notifications:write',
      success: { status: 200, schema: CallbackSecretOut, description: 'The secret' },
      handle: ({ actor }) => settings.rotateCallbackSecret(actor),
    }),
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
        const challenge = await callbacks.whatsAppHandshake(query, tenantSlug);
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
        callbacks.whatsAppCallback(await readAll(file), header(headers, 'x-hub-signature-256')),
    }),
    route({
      operationId: 'emailCallback',
      summary: 'Email delivery reports: JSON events or a raw RFC 3464 delivery-status message',
      description:
        'Signed with the tenant\'s callback secret: `X-Fundi-Signature: sha256=<hex HMAC-SHA256 of the raw body>`. JSON: `{"events":[{"messageId","event":"delivered|opened|bounced","bounceType":"hard|soft","timestamp","detail"}]}`. See docs/api.md, "Notifications".',
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
      errors: [401, 404],
      success: {
        status: 200,
        schema: CallbackOut,
        description: 'How many reports came and how many changed a notification',
      },
      handle: async ({ file, headers }) =>
        callbacks.emailCallback(await readAll(file), file?.declaredType ?? null, header(headers, 'x-fundi-signature')),
    }),
    route({
      operationId: 'notificationOpened',
      summary: 'The open-tracking pixel of an email (1x1 GIF)',
      description: 'No credential but the signed token; an invalid token changes nothing and still gets the GIF.',
      tag,
      method: 'get',
      path: '/notifications/opened/{token}',
      auth: 'none',
      scope: undefined,
      inbound: true,
      params: TokenParams,
      success: { status: 200, file: { contentTypes: ['image/gif'] }, description: 'A transparent pixel' },
      handle: async ({ params }) => {
        await callbacks.opened(params.token);
        return {
          contentType: 'image/gif',
          size: GIF.length,
          cacheControl: 'no-store',
          open: () => Readable.from([GIF]),
        };
      },
    }),
    route({
      operationId: 'unsubscribePage',
      summary: 'The unsubscribe page of a learner email (a button that confirms)',
      tag,
      method: 'get',
      path: '/notifications/unsubscribe/{token}',
      auth: 'none',
      scope: undefined,
      params: TokenParams,
      success: { status: 200, file: { contentTypes: ['text/html'] }, description: 'A page with one button' },
      // The form posts to this same address: the POST below.
      handle: async () =>
        page(
          '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Unsubscribe</title></head><body><main><h1>Stop these emails?</h1><p>You will get no more email from this training provider through Fundi.</p><form method="post"><button type="submit">Unsubscribe</button></form></main></body></html>',
        ),
    }),
    route({
      operationId: 'unsubscribe',
      summary: 'One-click unsubscribe of a learner from email (RFC 8058)',
      tag,
      method: 'post',
      path: '/notifications/unsubscribe/{token}',
      auth: 'none',
      scope: undefined,
      params: TokenParams,
      upload: { kind: 'raw', maxBytes: 1024, description: 'Ignored (`List-Unsubscribe=One-Click` or a form)' },
      errors: [403],
      success: { status: 200, schema: UnsubscribeOut, description: 'The learner gets no more email' },
      handle: ({ params }) => callbacks.unsubscribeByToken(params.token),
    }),
  ];
}

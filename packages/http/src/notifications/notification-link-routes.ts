import { Readable } from 'node:stream';
import type { NotificationUseCases } from '@fundi/application/notifications';
import { route } from '../routes/route.js';
import { TokenParams } from '../schemas/common.js';
import { UnsubscribeOut } from './notification-schemas.js';

const tag = 'Notifications';
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const page = (html: string) => ({
  contentType: 'text/html; charset=utf-8',
  size: Buffer.byteLength(html),
  open: () => Readable.from([Buffer.from(html)]),
});

/** What an email's links reach (docs/api.md, "Notifications"): the open-tracking pixel and unsubscribing. */
export function notificationLinkRoutes(u: NotificationUseCases) {
  const callbacks = u.notificationCallbacks;
  return [
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
        await callbacks.opened.execute(params.token);
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
      handle: ({ params }) => callbacks.unsubscribeByToken.execute(params.token),
    }),
  ];
}

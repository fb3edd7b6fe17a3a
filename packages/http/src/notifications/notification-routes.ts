import type { NotificationUseCases } from '@fundi/application/notifications';
import { IdParams } from '../schemas/common.js';
import { route, type RouteDef } from '../routes/route.js';
import { notificationAdminRoutes } from './notification-admin-routes.js';
import { notificationCallbackRoutes } from './notification-callback-routes.js';
import { notificationLinkRoutes } from './notification-link-routes.js';
import {
  BulkNotificationIn,
  BulkNotificationOut,
  NotificationIn,
  NotificationListQuery,
  NotificationOut,
} from './notification-schemas.js';

const tag = 'Notifications';

/** Notifications (docs/api.md, "Notifications"): sends, status, templates, settings, callbacks, pixel, unsubscribe. */
export function notificationRoutes(u: NotificationUseCases): RouteDef[] {
  const n = u.notifications;
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
      handle: ({ actor, body }) => n.send.execute(actor, body),
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
      handle: ({ actor, body }) => n.sendBulk.execute(actor, body),
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
      handle: ({ actor, query, page: p }) => n.list.execute(actor, query, p),
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
      handle: ({ actor, params }) => n.get.execute(actor, params.id),
    }),
    ...notificationAdminRoutes(u),
    ...notificationCallbackRoutes(u),
    ...notificationLinkRoutes(u),
  ];
}

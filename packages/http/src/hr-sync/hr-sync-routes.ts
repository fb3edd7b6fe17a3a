import type { HrSyncUseCases } from '@fundi/application';
import {
  HrDeliveryParams,
  HrEventAnswerOut,
  HrEventIn,
  HrEventLogOut,
  HrSyncOut,
  HrSyncPut,
  RotatedKeyOut,
  SigningSecretOut,
} from '../schemas/hr-sync-schemas.js';
import { AttemptOut, ReplayedDeliveryOut } from '../schemas/webhook-schemas.js';
import { route, type RouteDef } from '../routes/route.js';

const tag = 'HR sync';

/** HR synchronisation (docs/api.md, "HR sync"): configuration and logs (admins), and the inbound webhook. */
export function hrSyncRoutes(u: HrSyncUseCases): RouteDef[] {
  return [
    route({
      operationId: 'getHrSync',
      summary: 'HR sync configuration (admins)',
      tag,
      method: 'get',
      path: '/hr-sync',
      scope: 'hr:read',
      success: { status: 200, schema: HrSyncOut, description: 'The configuration (the initial one until set)' },
      handle: ({ actor, origin }) => u.get.execute(actor, origin),
    }),
    route({
      operationId: 'putHrSync',
      summary: 'Change the HR sync configuration (admins)',
      tag,
      method: 'put',
      path: '/hr-sync',
      scope: 'hr:write',
      body: HrSyncPut,
      success: { status: 200, schema: HrSyncOut, description: 'The configuration; signingSecret once' },
      handle: ({ actor, body, origin }) => u.put.execute(actor, body, origin),
    }),
    route({
      operationId: 'rotateHrSyncKey',
      summary: 'A new webhook key for inbound calls (admins)',
      description: 'Shown once; only its hash is kept. The previous key keeps working for 24 hours.',
      tag,
      method: 'post',
      path: '/hr-sync/rotate-key',
      scope: 'hr:write',
      success: { status: 200, schema: RotatedKeyOut, description: 'The new key' },
      handle: ({ actor, origin }) => u.rotateKey.execute(actor, origin),
    }),
    route({
      operationId: 'rotateHrSyncSigningSecret',
      summary: 'A new signing secret for outbound events (admins)',
      description: 'Both secrets sign for 24 hours. 409 before an outboundUrl was set.',
      tag,
      method: 'post',
      path: '/hr-sync/rotate-signing-secret',
      scope: 'hr:write',
      success: { status: 200, schema: SigningSecretOut, description: 'The new secret, shown once' },
      errors: [409],
      handle: ({ actor }) => u.rotateSigningSecret.execute(actor),
    }),
    route({
      operationId: 'listHrSyncEvents',
      summary: 'The inbound log, newest first (admins)',
      tag,
      method: 'get',
      path: '/hr-sync/events',
      scope: 'hr:read',
      list: { item: HrEventLogOut },
      success: { status: 200, description: 'A page of inbound events' },
      handle: ({ actor, page }) => u.listEvents.execute(actor, page),
    }),
    route({
      operationId: 'listHrSyncDeliveries',
      summary: 'Outbound delivery attempts, newest first (admins)',
      tag,
      method: 'get',
      path: '/hr-sync/deliveries',
      scope: 'hr:read',
      list: { item: AttemptOut },
      success: { status: 200, description: 'A page of attempts' },
      handle: ({ actor, page }) => u.listDeliveries.execute(actor, page),
    }),
    route({
      operationId: 'replayHrSyncDelivery',
      summary: 'Send an outbound event again (admins)',
      tag,
      method: 'post',
      path: '/hr-sync/deliveries/{deliveryId}/replay',
      scope: 'hr:write',
      params: HrDeliveryParams,
      success: { status: 202, schema: ReplayedDeliveryOut, description: 'A fresh delivery of the same event' },
      errors: [404, 409],
      handle: ({ actor, params }) => u.replayDelivery.execute(actor, params.deliveryId),
    }),
    route({
      operationId: 'receiveHrEvent',
      summary: 'Inbound HR event',
      description:
        "No API key: the webhook key in the header named by the tenant's configuration. Form B takes the tenant from the path, Form A from the key. 401 wrong or missing key, 403 HR sync disabled or another tenant's key, 422 unknown event.",
      tag,
      method: 'post',
      path: '/webhooks/hr-sync',
      auth: 'none',
      scope: undefined,
      body: HrEventIn,
      success: { status: 200, schema: HrEventAnswerOut, description: 'What the event did (the same for a repeat)' },
      errors: [401, 403, 409, 422],
      handle: ({ body, headers, tenantSlug }) => u.receive.execute({ tenantSlug, headers, body }),
    }),
  ];
}

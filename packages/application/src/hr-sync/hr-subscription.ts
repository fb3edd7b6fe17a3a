import { HR_OUTBOUND_EVENTS, hrOutboundBody } from '@fundi/domain/hr-sync';
import type { SubscriptionPurpose } from '../webhooks/subscription-purpose.js';

/**
 * The one webhook subscription behind a tenant's HR `outboundUrl` (docs/api.md, "HR sync"): managed through
 * `/hr-sync`, invisible to the webhook API, carrying HR's outbound messages in the body HR systems expect.
 */
export const hrSubscriptionPurpose: SubscriptionPurpose = {
  name: 'hr_sync',
  events: HR_OUTBOUND_EVENTS,
  body: (e) => hrOutboundBody(e.type, e.occurredAt, e.data),
  disabledAlert: (s, eventId, attempts) => ({
    kind: 'hr_sync_outbound_disabled',
    message:
      `HR outbound deliveries to ${s.url} were stopped: event ${eventId} failed ${attempts} delivery attempts. ` +
      'Fix the receiver, then PUT /hr-sync with enabled: true; undelivered events are sent again.',
  }),
};

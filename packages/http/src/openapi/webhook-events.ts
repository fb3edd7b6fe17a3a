import { PING_EVENT } from '@fundi/domain/webhooks';
import { z } from '../schemas/common.js';
import type { EventDocs } from './event-doc.js';

export const PingData = z.object({ subscriptionId: z.string(), message: z.string() }).strict();

/** The webhooks capability's own event: the test event, sent to one subscription and never subscribable. */
export const webhookEvents = {
  [PING_EVENT]: {
    summary: 'Test event of POST /webhook-subscriptions/{id}/test (not subscribable)',
    data: PingData,
    subscribable: false,
  },
} satisfies EventDocs;

import { DomainError } from '../common/errors.js';

/**
 * Every event a subscriber may ask for (docs/api.md, "Events and webhooks"): the first list plus the second. Each name
 * is its own outbox row (assessment.recorded and assessment.completed are two rows), so fan-out matches `type`
 * exactly and a subscriber receives an event under each name it subscribed to.
 */
export const WEBHOOK_EVENT_TYPES = [
  'learner.created',
  'learner.updated',
  'evidence.uploaded',
  'evidence.reviewed',
  'assessment.recorded',
  'assessment.completed',
  'moderation.completed',
  'moderation.sample_drawn',
  'enrolment.status_changed',
  'export.ready',
  'export.completed',
  'import.completed',
  'logbook.submitted',
  'logbook.signed',
  'logbook.queried',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The test event of `POST /webhook-subscriptions/{id}/test`: sent to one subscription, never subscribable. */
export const PING_EVENT = 'ping';

/** A non-empty, duplicate-free subset of WEBHOOK_EVENT_TYPES; anything else is invalid input naming `field`. */
export function parseEventTypes(value: unknown, field = 'events'): WebhookEventType[] {
  if (!Array.isArray(value) || value.length === 0)
    throw DomainError.invalid(field, 'must be a non-empty array of event names');
  const known = WEBHOOK_EVENT_TYPES as readonly string[];
  const out = new Set<WebhookEventType>();
  for (const [i, name] of value.entries()) {
    if (typeof name !== 'string' || !known.includes(name)) {
      throw DomainError.invalid(
        `${field}.${i}`,
        `unknown event ${JSON.stringify(name)}; one of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
      );
    }
    out.add(name as WebhookEventType);
  }
  return [...out];
}

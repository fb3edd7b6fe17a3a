import { DomainError } from '../common/errors.js';

/**
 * The name of an event a subscriber may ask for (docs/api.md, "Events and webhooks"). Each capability declares the
 * events it writes; the list a subscription is checked against is derived from those declarations at the
 * composition root. Each name is its own outbox row (assessment.recorded and assessment.completed are two rows), so
 * fan-out matches `type` exactly and a subscriber receives an event under each name it subscribed to.
 */
export type WebhookEventType = string;

/** The test event of `POST /webhook-subscriptions/{id}/test`: sent to one subscription, never subscribable. */
export const PING_EVENT = 'ping';

/** A non-empty, duplicate-free subset of `known`; anything else is invalid input naming `field`. */
export function parseEventTypes(value: unknown, known: readonly string[], field = 'events'): WebhookEventType[] {
  if (!Array.isArray(value) || value.length === 0)
    throw DomainError.invalid(field, 'must be a non-empty array of event names');
  const out = new Set<WebhookEventType>();
  for (const [i, name] of value.entries()) {
    if (typeof name !== 'string' || !known.includes(name)) {
      throw DomainError.invalid(`${field}.${i}`, `unknown event ${JSON.stringify(name)}; one of ${known.join(', ')}`);
    }
    out.add(name);
  }
  return [...out];
}

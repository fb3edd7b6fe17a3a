import { DomainError } from '../common/errors.js';

declare module '../audit/audit.js' {
  interface AuditOrigins {
    /** Changes made by HR inbound events (its system actor, `hrSystemActor`). */
    'hr-sync': true;
  }
}

/** Events HR posts to `POST /webhooks/hr-sync` (docs/api.md, "HR sync"). */
export const HR_INBOUND_EVENTS = ['employee.enrolled', 'employee.updated', 'employee.terminated'] as const;
export type HrInboundEvent = (typeof HR_INBOUND_EVENTS)[number];

/**
 * Events sent to the tenant's HR `outboundUrl`. They travel the webhook outbox and delivery machinery, but only to
 * the tenant's HR delivery subscription: no webhook subscription can ask for them.
 */
export const HR_OUTBOUND_EVENTS = ['learner.completed', 'learner.competency'] as const;
export type HrOutboundEvent = (typeof HR_OUTBOUND_EVENTS)[number];

export function isHrOutboundEvent(type: string): type is HrOutboundEvent {
  return (HR_OUTBOUND_EVENTS as readonly string[]).includes(type);
}

/** The body HR receives: `{event, timestamp, data}` (the event id travels in the `webhook-id` header). */
export function hrOutboundBody(type: string, occurredAt: string, data: Record<string, unknown>): string {
  return JSON.stringify({ event: type, timestamp: occurredAt, data });
}

/** How far an inbound event's `timestamp` may lie from the time it is received, either way. */
export const HR_EVENT_MAX_SKEW_MS = 5 * 60_000;

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An inbound event's `timestamp`, when it has one, must be an ISO 8601 instant (with `Z` or an offset) within five
 * minutes of `now`: an event from 1990 or 2099 is a replay, a mistake or a clock gone wrong, never applied.
 */
export function checkHrEventTimestamp(value: unknown, now: Date): void {
  if (value === undefined) return;
  const at = typeof value === 'string' && INSTANT.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at))
    throw DomainError.invalid('timestamp', 'must be an ISO 8601 time with Z or an offset (2026-03-01T08:00:00Z)');
  if (Math.abs(at - now.getTime()) > HR_EVENT_MAX_SKEW_MS)
    throw DomainError.invalid(
      'timestamp',
      `must be within 5 minutes of the time the event is received (${now.toISOString()})`,
      'timestamp_out_of_range',
    );
}

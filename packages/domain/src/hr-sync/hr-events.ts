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

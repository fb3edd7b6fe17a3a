import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { DELIVERY, ERASABLE, webhookHeaders } from '../openapi/event-doc.js';
import { Timestamp, z } from '../schemas/common.js';

const ErasedData = z.object({ id: z.string(), erased: z.literal(true) });

/** The HR outbound events (docs/api.md, "HR sync"): sent to the tenant's HR `outboundUrl` only. */
export const HR_OUTBOUND_EVENT_DATA = {
  'learner.completed': {
    summary: 'HR sync: an employee completed a programme (sent to the HR outboundUrl)',
    data: z.union([
      z.object({
        employeeRef: z.string(),
        qualificationId: z.string().nullable(),
        qualificationName: z.string(),
        programmeCode: z.string(),
        achievementDate: z.string().openapi({ format: 'date' }),
        certificateNumber: z.string().nullable(),
      }),
      ErasedData,
    ]),
  },
  'learner.competency': {
    summary: 'HR sync: an assessment of an employee was recorded (sent to the HR outboundUrl)',
    data: z.union([
      z.object({
        employeeRef: z.string(),
        moduleCode: z.string(),
        outcome: z.enum(['C', 'NYC']),
        assessmentType: z.enum(['formative', 'summative']),
        date: z.string().openapi({ format: 'date' }),
      }),
      ErasedData,
    ]),
  },
} as const;

/** The OpenAPI `webhooks` entries of the HR outbound messages, in the body HR systems expect. */
export function registerHrOutboundEvents(registry: OpenAPIRegistry): void {
  for (const [type, e] of Object.entries(HR_OUTBOUND_EVENT_DATA)) {
    const body = z.object({ event: z.literal(type), timestamp: Timestamp, data: e.data });
    registry.registerWebhook({
      method: 'post',
      path: `hr.${type}`,
      operationId: `hr_${type.replace(/\./g, '_')}`,
      summary: e.summary,
      tags: ['HR sync'],
      description: `${DELIVERY} Signed like every webhook; the event id is in \`webhook-id\`.${ERASABLE}`,
      request: {
        headers: webhookHeaders,
        body: { required: true, content: { 'application/json': { schema: body } } },
      },
      responses: { 200: { description: 'Any 2xx acknowledges the event' } },
    });
  }
}

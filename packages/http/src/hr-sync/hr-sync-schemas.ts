import { HR_INBOUND_EVENTS } from '@fundi/domain/hr-sync';
import { Timestamp, z } from '../schemas/common.js';

const mapping = z.record(z.string(), z.string()).openapi({
  description:
    'HR field name -> learner field path (`learner.<field>`). Must map learner.employeeRef, learner.firstName, learner.lastName and learner.idNumber; an unknown target is invalid input.',
  example: {
    staffNo: 'learner.employeeRef',
    firstName: 'learner.firstName',
    lastName: 'learner.lastName',
    saIdNumber: 'learner.idNumber',
  },
});
const authentication = z
  .object({
    type: z.literal('api_key'),
    headerName: z.string().openapi({ example: 'X-API-Key', description: 'The header that carries the webhook key' }),
  })
  .strict();

export const HrSyncPut = z
  .object({
    enabled: z.boolean().optional(),
    system: z.literal('custom').optional(),
    inboundUrl: z
      .string()
      .optional()
      .openapi({ description: 'Read-only: accepted and ignored, so a GET can be PUT back' }),
    outboundUrl: z.string().nullable().optional().openapi({
      format: 'uri',
      description: 'Where learner.completed and learner.competency are posted; the webhook URL rules apply',
    }),
    authentication: authentication.partial({ type: true, headerName: true }).optional(),
    fieldMapping: mapping.optional(),
  })
  .strict()
  .openapi('HrSyncUpdate');

export const HrSyncOut = z
  .object({
    enabled: z.boolean(),
    system: z.literal('custom'),
    inboundUrl: z.string(),
    outboundUrl: z.string().nullable(),
    authentication,
    fieldMapping: mapping,
    keyPrefix: z.string().nullable(),
    previousKeyExpiresAt: Timestamp.nullable(),
    outbound: z
      .object({
        enabled: z.boolean(),
        disabledReason: z.string().nullable(),
        previousSecretExpiresAt: Timestamp.nullable(),
      })
      .nullable(),
    updatedAt: Timestamp,
    signingSecret: z.string().optional().openapi({
      description: 'Only when this PUT set the first outboundUrl: the outbound signing secret, shown once',
    }),
  })
  .openapi('HrSync');

export const RotatedKeyOut = z
  .object({
    key: z
      .string()
      .openapi({ description: 'The webhook key, shown this once', example: 'hrk_Vh3sQ0m1x8ZC2rLkN4pY7tW9aB5dE6fG' }),
    keyPrefix: z.string(),
    headerName: z.string(),
    inboundUrl: z.string(),
    previousKeyExpiresAt: Timestamp.nullable().openapi({ description: 'Until then the previous key still works' }),
  })
  .openapi('HrSyncKey');

export const SigningSecretOut = z
  .object({ signingSecret: z.string(), previousSecretExpiresAt: Timestamp.nullable() })
  .openapi('HrSyncSigningSecret');

export const HrEventIn = z
  .object({
    id: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: 'The HR event id; a repeated id is answered as the first time' }),
    event: z
      .string()
      .min(1)
      .max(100)
      .openapi({ example: 'employee.enrolled', enum: [...HR_INBOUND_EVENTS] }),
    timestamp: z.string().max(64).optional(),
    data: z.record(z.string(), z.unknown()).openapi({
      description:
        'HR fields (through the field mapping) plus programmeCode (enrolled) or reason and terminationDate (terminated)',
      example: {
        employeeId: 'E-1001',
        firstName: 'Thandi',
        lastName: 'Mokoena',
        saIdNumber: '9001014800089',
        email: 'thandi@example.co.za',
        programmeCode: 'SP-101',
      },
    }),
  })
  .strict()
  .openapi('HrInboundEvent');

export const HrEventAnswerOut = z
  .object({
    learnerId: z.string(),
    enrolmentId: z.string().optional(),
    created: z
      .boolean()
      .optional()
      .openapi({ description: 'employee.enrolled: the learner was created (not matched)' }),
    withdrawnEnrolmentIds: z.array(z.string()).optional(),
  })
  .openapi('HrInboundResult');

export const HrEventLogOut = z
  .object({
    id: z.string(),
    hrEventId: z.string().nullable(),
    event: z.string(),
    receivedAt: Timestamp,
    result: z.enum(['processed', 'failed', 'duplicate']),
    response: z.record(z.string(), z.unknown()).nullable(),
    error: z.object({ code: z.string(), message: z.string(), fields: z.array(z.string()) }).nullable(),
    learnerId: z.string().nullable(),
    data: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: 'What HR sent; null once the learner is erased' }),
    redacted: z.boolean(),
  })
  .openapi('HrEventLogEntry');

export const HrDeliveryParams = z.object({ deliveryId: z.string().min(1).max(64) });

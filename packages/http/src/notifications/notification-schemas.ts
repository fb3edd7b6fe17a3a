import { z, Timestamp, ActorOut } from '../schemas/common.js';

/** The channels a message goes by. */
export const Channel = z.enum(['email', 'whatsapp']);
const STATUSES = ['queued', 'sent', 'delivered', 'opened', 'read', 'bounced', 'failed', 'skipped'] as const;
/** A message's or preview's variable values. */
export const Variables = z
  .record(z.string().max(100), z.string().max(10_000))
  .optional()
  .openapi({
    description:
      'String values keyed by template variable (`learner.firstName`, `module.name`, ...) or messaging alias (`learner_name`); see docs/api.md, "Notifications"',
    example: { 'learner.firstName': 'Thandi', 'module.name': 'Workplace safety' },
  });

export const NotificationIn = z
  .object({
    recipientId: z.string().min(1).max(64).optional().openapi({ description: "A staff user's id, or a learner's" }),
    learnerId: z.string().min(1).max(64).optional().openapi({ description: 'A learner (instead of recipientId)' }),
    channel: Channel,
    template: z.string().min(1).max(64).openapi({ example: 'evidence_approved' }),
    variables: Variables,
  })
  .strict()
  .openapi('NotificationRequest');

export const BulkNotificationIn = z
  .object({
    recipientIds: z.array(z.string().min(1).max(64)).min(1).max(1000),
    channel: Channel,
    template: z.string().min(1).max(64),
    variables: Variables,
  })
  .strict()
  .openapi('BulkNotificationRequest');

export const NotificationOut = z
  .object({
    id: z.string(),
    recipientType: z.enum(['learner', 'user']),
    recipientId: z.string(),
    channel: Channel,
    template: z.string(),
    to: z.string().nullable().openapi({ description: 'Address or E.164 number; null when skipped or erased' }),
    status: z.enum(STATUSES).openapi({
      description:
        'email: queued, sent, delivered, opened, or bounced (final); whatsapp: queued, sent, delivered, read, or failed (final); skipped: never sent (the history says why)',
    }),
    history: z.array(
      z.object({ status: z.enum(STATUSES), at: Timestamp, detail: z.string().nullable() }).openapi('NotificationEvent'),
    ),
    attempts: z.number().int(),
    trigger: z.string().nullable().openapi({ description: 'The trigger that sent it; null when sent through the API' }),
    createdBy: ActorOut,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Notification');

export const BulkNotificationOut = z.object({ data: z.array(NotificationOut) }).openapi('BulkNotificationResult');

export const NotificationListQuery = z
  .object({
    recipientId: z.string().max(64).optional(),
    channel: Channel.optional(),
    status: z.enum(STATUSES).optional(),
    template: z.string().max(64).optional(),
  })
  .strict();

export const CallbackOut = z
  .object({ received: z.number().int(), applied: z.number().int() })
  .openapi('NotificationCallbackResult');
export const UnsubscribeOut = z.object({ unsubscribed: z.boolean() }).openapi('UnsubscribeResult');
export const HandshakeQuery = z
  .object({
    'hub.mode': z.string().max(50).optional(),
    'hub.verify_token': z.string().max(256).optional(),
    'hub.challenge': z.string().max(256).optional(),
  })
  .strict();

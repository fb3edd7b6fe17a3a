import { z, Timestamp, ActorOut } from '../schemas/common.js';

const Channel = z.enum(['email', 'whatsapp']);
const STATUSES = ['queued', 'sent', 'delivered', 'opened', 'read', 'bounced', 'failed', 'skipped'] as const;
const Variables = z
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

export const TemplateKeyParams = z.object({
  key: z.string().min(1).max(64).openapi({ description: 'Template key', example: 'welcome' }),
});

const EmailParts = z.object({ subject: z.string(), html: z.string(), text: z.string() });

const TemplateSummary = {
  key: z.string(),
  audience: z.enum(['learner', 'staff', 'admin']),
  description: z.string().openapi({ description: 'When the trigger sends it' }),
  channels: z.array(Channel),
  overridden: z.boolean().openapi({ description: 'The tenant has its own email version' }),
  variables: z.array(z.string()).openapi({ description: 'What the template may name' }),
};

export const TemplateSummaryOut = z.object(TemplateSummary).openapi('NotificationTemplateSummary');

export const TemplateOut = z
  .object({
    ...TemplateSummary,
    source: z.enum(['default', 'override']),
    email: EmailParts.nullable(),
    whatsapp: z.object({ name: z.string(), language: z.string(), parameters: z.array(z.string()) }).nullable(),
    sample: z.record(z.string(), z.string()).openapi({ description: 'Example values, used by the preview' }),
    updatedAt: Timestamp.nullable(),
  })
  .openapi('NotificationTemplate');

export const TemplateIn = z
  .object({
    subject: z.string().min(1).max(1000),
    html: z.string().max(100_000),
    text: z.string().min(1).max(100_000),
  })
  .strict()
  .openapi('NotificationTemplateOverride');

export const PreviewIn = z
  .object({
    subject: z.string().max(1000).optional(),
    html: z.string().max(100_000).optional(),
    text: z.string().max(100_000).optional(),
    variables: Variables,
  })
  .strict()
  .openapi('NotificationTemplatePreviewRequest');

export const PreviewOut = EmailParts.openapi('RenderedEmail');

export const SettingsOut = z
  .object({
    triggers: z.record(z.string(), z.boolean()).openapi({ description: 'Every trigger, on or off' }),
    smtp: z
      .object({
        host: z.string(),
        port: z.number().int(),
        secure: z.boolean(),
        user: z.string().nullable(),
        from: z.string(),
        passwordSet: z.boolean(),
      })
      .nullable(),
    whatsapp: z
      .object({
        phoneNumberId: z.string(),
        baseUrl: z.string(),
        apiVersion: z.string(),
        verifyToken: z.string(),
        accessTokenSet: z.boolean(),
        appSecretSet: z.boolean(),
        templates: z.record(z.string(), z.object({ name: z.string(), language: z.string() })),
      })
      .nullable(),
    callbackSecretSet: z.boolean(),
    updatedAt: Timestamp.nullable(),
  })
  .openapi('NotificationSettings');

export const SettingsIn = z
  .object({
    triggers: z
      .record(z.string(), z.boolean())
      .optional()
      .openapi({ description: '{"welcome": false, ...}: merged switch by switch' }),
    smtp: z
      .object({
        host: z.string().max(253),
        port: z.number().int(),
        secure: z.boolean().optional().openapi({ description: 'TLS from the start (465); default: port is 465' }),
        user: z.string().max(255).nullable().optional(),
        password: z
          .string()
          .max(1024)
          .nullable()
          .optional()
          .openapi({ description: 'Write-only; left out: the stored one is kept; null: none' }),
        from: z.string().max(320).openapi({ example: 'Ubuntu Skills <training@ubuntu.example>' }),
      })
      .strict()
      .nullable()
      .optional()
      .openapi({ description: "The tenant's own SMTP server; null: back to the operator's default" }),
    whatsapp: z
      .object({
        phoneNumberId: z.string().max(20),
        accessToken: z
          .string()
          .max(4096)
          .optional()
          .openapi({ description: 'Write-only; required the first time; left out: the stored one is kept' }),
        appSecret: z
          .string()
          .max(256)
          .optional()
          .openapi({ description: 'Write-only; required the first time; checks X-Hub-Signature-256 of callbacks' }),
        baseUrl: z.string().max(2048).optional().openapi({ description: 'Default https://graph.facebook.com' }),
        apiVersion: z.string().max(10).optional().openapi({ description: 'Default v21.0' }),
        verifyToken: z.string().max(256).optional().openapi({ description: 'Default: generated' }),
        templates: z
          .record(z.string(), z.object({ name: z.string().max(512), language: z.string().max(10) }).strict())
          .optional()
          .openapi({ description: 'Your approved template names and languages by template key' }),
      })
      .strict()
      .nullable()
      .optional()
      .openapi({ description: "The tenant's WhatsApp Cloud API account; null: none" }),
  })
  .strict()
  .openapi('NotificationSettingsUpdate');

export const TestEmailIn = z
  .object({ to: z.string().max(320) })
  .strict()
  .openapi('TestEmailRequest');
export const TestEmailOut = z
  .object({ sent: z.boolean(), messageId: z.string().nullable(), error: z.string().nullable() })
  .openapi('TestEmailResult');
export const CallbackSecretOut = z
  .object({ secret: z.string().openapi({ description: 'Shown only here: signs email callbacks' }) })
  .openapi('NotificationCallbackSecret');
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

import { z, Timestamp } from '../schemas/common.js';

/** A tenant's notification settings: its triggers and channel accounts, a test email and the callback secret. */
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

import { z, Timestamp } from '../schemas/common.js';
import { Channel, Variables } from './notification-schemas.js';

/** A tenant's notification templates: the built-in ones, its own email versions and their preview. */
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

import type { TemplateDefinition } from '../common/triggers.js';

export type { EmailTemplate, TemplateDefinition, WhatsAppTemplate } from '../common/triggers.js';
export { email, learner, staff, whatsapp } from '../common/trigger-templates.js';

/**
 * A template's key (its trigger's switch): the notifications' own, and those other capabilities offer through the
 * `triggers` hook (`TriggerCatalogue`).
 */
export type TemplateKey = string;

/** The keys of the notifications capability's own built-in templates. */
export type OwnTemplateKey =
  | 'welcome'
  | 'assessment_result'
  | 'programme_complete'
  | 'deadline_reminder'
  | 'moderation_due'
  | 'user_invited'
  | 'security_alert'
  | 'quota_warning'
  | 'webhook_disabled'
  | 'contact_bounced'
  | 'password_reset'
  | 'programme_milestone'
  | 'portal_sign_in'
  | 'portal_code'
  | 'logbook_sign_off';

/** One of the notifications' own templates: it names only the shared variables. */
export type OwnTemplate = TemplateDefinition<OwnTemplateKey, never>;

import type { TemplateVariable } from './template-variables.js';
import { escapeHtml, type EmailTemplate, type WhatsAppTemplate } from './templates.js';

export type TemplateKey =
  | 'welcome'
  | 'evidence_approved'
  | 'evidence_revision'
  | 'assessment_result'
  | 'programme_complete'
  | 'deadline_reminder'
  | 'new_evidence'
  | 'moderation_due'
  | 'report_ready'
  | 'user_invited'
  | 'security_alert'
  | 'export_complete'
  | 'quota_warning'
  | 'webhook_disabled'
  | 'contact_bounced'
  | 'password_reset'
  | 'programme_milestone'
  | 'portal_sign_in'
  | 'portal_code'
  | 'logbook_sign_off';

export interface TemplateDefinition {
  key: TemplateKey;
  audience: 'learner' | 'staff' | 'admin';
  /** When the service sends it. Every trigger is on unless a tenant turns it off. */
  trigger: string;
  email: EmailTemplate | null;
  whatsapp: WhatsAppTemplate | null;
  /** Example values that render every part: the documented sample. */
  sample: Partial<Record<TemplateVariable, string>>;
}

/**
 * An email in the house layout: paragraphs, an optional link to `{{actionUrl}}`, and the organisation's name as the
 * signature. Literal text is escaped once here; values are escaped when rendered.
 */
export function email(subject: string, paragraphs: string[], action?: string): EmailTemplate {
  const link = action ? [`<p><a href="{{actionUrl}}">${escapeHtml(action)}</a></p>`] : [];
  const html = [...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`), ...link, '<p>{{organisation.name}}</p>'].join(
    '\n',
  );
  const text = [...paragraphs, ...(action ? [`${action}: {{actionUrl}}`] : []), '-- \n{{organisation.name}}'].join(
    '\n\n',
  );
  return { subject, html, text: `${text}\n` };
}

export const whatsapp = (name: TemplateKey, parameters: TemplateVariable[]): WhatsAppTemplate => ({
  name,
  language: 'en',
  parameters,
});

/** The sample values every learner template starts from. */
export const learner = {
  'learner.firstName': 'Thandi',
  'organisation.name': 'Ubuntu Skills Academy',
};
/** The sample values every staff and admin template starts from. */
export const staff = {
  'recipient.firstName': 'Sipho',
  'organisation.name': 'Ubuntu Skills Academy',
  actionUrl: 'https://app.fundi.example/s/def456',
};

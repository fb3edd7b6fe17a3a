import type { EmailTemplate, SharedVariable, WhatsAppTemplate } from './triggers.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * An email in the house layout of built-in templates (`triggers` hook, `triggers.ts`): paragraphs, an optional link
 * to `{{actionUrl}}`, and the organisation's name as the signature. Literal text is escaped once here; values are
 * escaped when rendered.
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

/** A built-in WhatsApp template, in English, named as its key. */
export const whatsapp = <K extends string, V extends string>(name: K, parameters: (V | SharedVariable)[]) =>
  ({ name, language: 'en', parameters }) satisfies WhatsAppTemplate<V | SharedVariable>;

/** The sample values every learner template starts from. */
export const learner = {
  'learner.firstName': 'Thandi',
  'organisation.name': 'Ubuntu Skills Academy',
} as const satisfies Partial<Record<SharedVariable, string>>;
/** The sample values every staff and admin template starts from. */
export const staff = {
  'recipient.firstName': 'Sipho',
  'organisation.name': 'Ubuntu Skills Academy',
  actionUrl: 'https://app.fundi.example/s/def456',
} as const satisfies Partial<Record<SharedVariable, string>>;

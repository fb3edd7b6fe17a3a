import { DomainError } from '@fundi/domain';
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
  | 'programme_milestone';

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
function email(subject: string, paragraphs: string[], action?: string): EmailTemplate {
  const link = action ? [`<p><a href="{{actionUrl}}">${escapeHtml(action)}</a></p>`] : [];
  const html = [...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`), ...link, '<p>{{organisation.name}}</p>'].join(
    '\n',
  );
  const text = [...paragraphs, ...(action ? [`${action}: {{actionUrl}}`] : []), '-- \n{{organisation.name}}'].join(
    '\n\n',
  );
  return { subject, html, text: `${text}\n` };
}

const whatsapp = (name: TemplateKey, parameters: TemplateVariable[]): WhatsAppTemplate => ({
  name,
  language: 'en',
  parameters,
});

const learner = {
  'learner.firstName': 'Thandi',
  'organisation.name': 'Ubuntu Skills Academy',
};
const staff = {
  'recipient.firstName': 'Sipho',
  'organisation.name': 'Ubuntu Skills Academy',
  actionUrl: 'https://app.fundi.example/s/def456',
};

export const BUILT_IN_TEMPLATES: readonly TemplateDefinition[] = [
  {
    key: 'welcome',
    audience: 'learner',
    trigger: 'a learner is registered (through the API, an import or HR sync)',
    email: email('Welcome to {{organisation.name}}', [
      'Hi {{learner.firstName}},',
      '{{organisation.name}} has registered you as a learner. We will keep you posted about your training here.',
    ]),
    whatsapp: null,
    sample: { ...learner },
  },
  {
    key: 'evidence_approved',
    audience: 'learner',
    trigger: 'evidence a learner submitted is approved',
    email: email('Your {{evidence.type}} was approved', [
      'Hi {{learner.firstName}},',
      'Your {{evidence.type}} for {{module.name}} was approved.',
    ]),
    whatsapp: whatsapp('evidence_approved', ['learner.firstName', 'evidence.type', 'module.name']),
    sample: { ...learner, 'evidence.type': 'portfolio of evidence', 'module.name': 'Module 2: Workplace safety' },
  },
  {
    key: 'evidence_revision',
    audience: 'learner',
    trigger: 'a reviewer asks for evidence to be revised',
    email: email('Please revise your {{evidence.type}}', [
      'Hi {{learner.firstName}},',
      'Your {{evidence.type}} for {{module.name}} needs changes. Your reviewer wrote:',
      '{{evidence.feedback}}',
    ]),
    whatsapp: whatsapp('evidence_revision', ['learner.firstName', 'evidence.type', 'evidence.feedback']),
    sample: {
      ...learner,
      'evidence.type': 'logbook',
      'module.name': 'Module 3: Tools',
      'evidence.feedback': "Please add the supervisor's signature on page 4.",
    },
  },
  {
    key: 'assessment_result',
    audience: 'learner',
    trigger: 'an assessment of the learner is recorded',
    email: email('Your result for {{module.name}}: {{assessment.result}}', [
      'Hi {{learner.firstName}},',
      'Your assessment for {{module.name}} was recorded as {{assessment.result}}.',
    ]),
    whatsapp: whatsapp('assessment_result', ['learner.firstName', 'module.name', 'assessment.result']),
    sample: { ...learner, 'module.name': 'Module 2: Workplace safety', 'assessment.result': 'competent' },
  },
  {
    key: 'programme_complete',
    audience: 'learner',
    trigger: 'the learner completes a programme',
    email: email('Congratulations: you completed {{programme.name}}', [
      'Well done, {{learner.firstName}}!',
      'You have completed {{programme.name}}. {{organisation.name}} will let you know when your certificate is issued.',
    ]),
    whatsapp: null,
    sample: { ...learner, 'programme.name': 'National Certificate: Welding' },
  },
  {
    key: 'deadline_reminder',
    audience: 'learner',
    trigger: "three days before a learner's deadline",
    email: email('Reminder: {{deadline.task}} is due on {{deadline.date}}', [
      'Hi {{learner.firstName}},',
      'This is a reminder that {{deadline.task}} for {{programme.name}} is due on {{deadline.date}}.',
    ]),
    whatsapp: whatsapp('deadline_reminder', ['learner.firstName', 'deadline.task', 'deadline.date']),
    sample: {
      ...learner,
      'deadline.task': 'your logbook upload',
      'programme.name': 'National Certificate: Welding',
      'deadline.date': '2026-06-04',
    },
  },
  {
    key: 'new_evidence',
    audience: 'staff',
    trigger: 'a learner submits evidence to review',
    email: email(
      'New evidence from {{learner.firstName}} {{learner.lastName}}',
      [
        'Hi {{recipient.firstName}},',
        '{{learner.firstName}} {{learner.lastName}} submitted {{evidence.type}} for {{module.name}} ({{programme.name}}).',
      ],
      'Review the evidence',
    ),
    whatsapp: null,
    sample: {
      ...staff,
      'learner.firstName': 'Thandi',
      'learner.lastName': 'Nkosi',
      'evidence.type': 'portfolio of evidence',
      'module.name': 'Module 2: Workplace safety',
      'programme.name': 'National Certificate: Welding',
    },
  },
  {
    key: 'moderation_due',
    audience: 'staff',
    trigger: 'a moderation sample is drawn',
    email: email(
      'Moderation due for {{programme.name}} by {{deadline.date}}',
      [
        'Hi {{recipient.firstName}},',
        'A moderation sample of {{programme.name}} was drawn. Assessments in the sample: {{sample.size}}. Their moderation is due by {{deadline.date}}.',
      ],
      'Open the dashboard',
    ),
    whatsapp: null,
    sample: {
      ...staff,
      'programme.name': 'National Certificate: Welding',
      'sample.size': '12',
      'deadline.date': '2026-06-30',
    },
  },
  {
    key: 'report_ready',
    audience: 'staff',
    trigger: 'a report someone asked for is ready',
    email: email(
      'Your report is ready: {{report.name}}',
      ['Hi {{recipient.firstName}},', 'The report {{report.name}} is ready to download.'],
      'Download the report',
    ),
    whatsapp: null,
    sample: { ...staff, 'report.name': 'Quarterly progress, Q2 2026' },
  },
  {
    key: 'user_invited',
    audience: 'staff',
    trigger: 'someone is invited to work in the organisation',
    email: email(
      'You are invited to {{organisation.name}}',
      ['Hi {{recipient.firstName}},', '{{inviter.name}} invited you to work with {{organisation.name}}.'],
      'Accept the invitation',
    ),
    whatsapp: null,
    sample: { ...staff, 'inviter.name': 'Lindiwe Dube' },
  },
  {
    key: 'security_alert',
    audience: 'admin',
    trigger: "something needs an admin's attention for security",
    email: email(
      'Security alert for {{organisation.name}}',
      ['Hi {{recipient.firstName}},', '{{alert.summary}}', 'If this was not expected, review your API keys now.'],
      'Review the activity',
    ),
    whatsapp: null,
    sample: { ...staff, 'alert.summary': 'An API key was used from a new address 40 times in one minute.' },
  },
  {
    key: 'export_complete',
    audience: 'admin',
    trigger: 'an export finishes',
    email: email(
      'Your {{export.type}} export is ready',
      ['Hi {{recipient.firstName}},', 'The {{export.type}} export you asked for is ready to download.'],
      'Download the export',
    ),
    whatsapp: null,
    sample: { ...staff, 'export.type': 'learners' },
  },
  {
    key: 'quota_warning',
    audience: 'admin',
    trigger: 'tenant storage reaches 80% and again at 90% of the plan',
    email: email(
      'Storage at {{quota.percent}}% of your plan',
      [
        'Hi {{recipient.firstName}},',
        '{{organisation.name}} has used {{quota.percent}}% of its file storage. Uploads stop when it is full.',
      ],
      'See storage use',
    ),
    whatsapp: null,
    sample: { ...staff, 'quota.percent': '80' },
  },
  {
    key: 'webhook_disabled',
    audience: 'admin',
    trigger: 'a webhook subscription is disabled after its deliveries kept failing',
    email: email(
      'A webhook subscription was disabled',
      [
        'Hi {{recipient.firstName}},',
        'Deliveries to {{webhook.url}} failed five times in a row, so the subscription was disabled. No events are sent to it until it is enabled again.',
      ],
      'Open the subscription',
    ),
    whatsapp: null,
    sample: { ...staff, 'webhook.url': 'https://hooks.example.org/fundi' },
  },
  {
    key: 'contact_bounced',
    audience: 'admin',
    trigger: "mail to a learner bounced for good: the learner's contact details need an update",
    email: email(
      'Mail to {{learner.firstName}} {{learner.lastName}} bounced',
      [
        'Hi {{recipient.firstName}},',
        'Mail to {{learner.firstName}} {{learner.lastName}} could not be delivered: {{alert.summary}}',
        'The learner is flagged for a contact update. Correct their email address to clear the flag.',
      ],
      'Open the learner',
    ),
    whatsapp: null,
    sample: {
      ...staff,
      'learner.firstName': 'Thandi',
      'learner.lastName': 'Nkosi',
      'alert.summary': '550 5.1.1 mailbox unavailable',
    },
  },
  {
    key: 'password_reset',
    audience: 'staff',
    trigger: 'a staff user asks for a new password on the sign-in page (the link works for one hour)',
    email: email(
      'Choose a new password for {{organisation.name}}',
      [
        'Hi {{recipient.firstName}},',
        'Someone asked to reset your password for the Fundi dashboard of {{organisation.name}}. If it was not you, ignore this email: your password stays as it is.',
      ],
      'Choose a new password',
    ),
    whatsapp: null,
    sample: { ...staff },
  },
  {
    key: 'programme_milestone',
    audience: 'learner',
    trigger: 'a learner reaches a programme milestone (messaging channel only)',
    email: null,
    whatsapp: whatsapp('programme_milestone', ['learner.firstName', 'milestone.name', 'programme.name']),
    sample: {
      'learner.firstName': 'Thandi',
      'milestone.name': 'half of the modules done',
      'programme.name': 'National Certificate: Welding',
    },
  },
];

const BY_KEY = new Map(BUILT_IN_TEMPLATES.map((t) => [t.key, t]));

/** The built-in template for `key`; DomainError('invalid') on `template` for a key that is none. */
export function builtInTemplate(key: string): TemplateDefinition {
  const t = BY_KEY.get(key as TemplateKey);
  if (!t)
    throw DomainError.invalid(
      'template',
      `unknown template; one of ${[...BY_KEY.keys()].join(', ')}`,
      'unknown_template',
    );
  return t;
}

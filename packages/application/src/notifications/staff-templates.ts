import { email, staff, type TemplateDefinition } from './template-definition.js';

/** The built-in templates sent to staff users (audience `staff`). */
export const STAFF_TEMPLATES: readonly TemplateDefinition[] = [
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
];

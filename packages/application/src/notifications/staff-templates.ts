import { email, staff, type OwnTemplate } from './template-definition.js';

/** The built-in templates sent to staff users (audience `staff`). */
export const STAFF_TEMPLATES: readonly OwnTemplate[] = [
  {
    key: 'moderation_due',
    order: 80,
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
    key: 'user_invited',
    order: 100,
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
    order: 160,
    audience: 'staff',
    personal: false,
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

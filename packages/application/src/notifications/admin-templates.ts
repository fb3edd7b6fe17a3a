import { email, staff, type OwnTemplate } from './template-definition.js';

/** The built-in templates sent to administrators (audience `admin`): security, storage, webhooks, bounces. */
export const ADMIN_TEMPLATES: readonly OwnTemplate[] = [
  {
    key: 'security_alert',
    order: 110,
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
    key: 'quota_warning',
    order: 130,
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
    order: 140,
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
    order: 150,
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
];

import { email, learner, whatsapp, type OwnTemplate } from './template-definition.js';

/** The built-in templates sent to learners (audience `learner`). */
export const LEARNER_TEMPLATES: readonly OwnTemplate[] = [
  {
    key: 'welcome',
    order: 10,
    audience: 'learner',
    trigger: 'a learner is registered (through the API, an import or HR sync)',
    email: email(
      'Welcome to {{organisation.name}}',
      [
        'Hi {{learner.firstName}},',
        '{{organisation.name}} has registered you as a learner. We will keep you posted about your training here.',
      ],
      'See your programmes',
    ),
    whatsapp: null,
    sample: { ...learner, actionUrl: 'https://app.fundi.example/learn?tenant=ubuntu-skills' },
  },
  {
    key: 'assessment_result',
    order: 40,
    audience: 'learner',
    trigger: 'an assessment of the learner is recorded',
    email: email(
      'Your result for {{module.name}}: {{assessment.result}}',
      ['Hi {{learner.firstName}},', 'Your assessment for {{module.name}} was recorded as {{assessment.result}}.'],
      'See your progress',
    ),
    whatsapp: whatsapp('assessment_result', ['learner.firstName', 'module.name', 'assessment.result']),
    sample: {
      ...learner,
      actionUrl: 'https://app.fundi.example/learn?tenant=ubuntu-skills',
      'module.name': 'Module 2: Workplace safety',
      'assessment.result': 'competent',
    },
  },
  {
    key: 'programme_complete',
    order: 50,
    audience: 'learner',
    trigger: 'the learner completes a programme',
    email: email(
      'Congratulations: you completed {{programme.name}}',
      [
        'Well done, {{learner.firstName}}!',
        'You have completed {{programme.name}}. {{organisation.name}} will let you know when your certificate is issued.',
      ],
      'See your statements of results',
    ),
    whatsapp: null,
    sample: {
      ...learner,
      actionUrl: 'https://app.fundi.example/learn/statements?tenant=ubuntu-skills',
      'programme.name': 'National Certificate: Welding',
    },
  },
  {
    key: 'deadline_reminder',
    order: 60,
    audience: 'learner',
    trigger: "three days before a learner's deadline",
    email: email(
      'Reminder: {{deadline.task}} is due on {{deadline.date}}',
      [
        'Hi {{learner.firstName}},',
        'This is a reminder that {{deadline.task}} for {{programme.name}} is due on {{deadline.date}}.',
      ],
      'Open your learner page',
    ),
    whatsapp: whatsapp('deadline_reminder', ['learner.firstName', 'deadline.task', 'deadline.date', 'actionUrl']),
    sample: {
      ...learner,
      actionUrl: 'https://app.fundi.example/learn?tenant=ubuntu-skills',
      'deadline.task': 'your logbook upload',
      'programme.name': 'National Certificate: Welding',
      'deadline.date': '2026-06-04',
    },
  },
  {
    key: 'programme_milestone',
    order: 170,
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
  {
    key: 'portal_sign_in',
    order: 180,
    audience: 'learner',
    trigger: 'a learner asks to sign in to the learner portal (the link or code works once, for 15 minutes)',
    email: email(
      'Sign in to {{organisation.name}}',
      [
        'Hi {{learner.firstName}},',
        'Someone asked to sign in to your learner page at {{organisation.name}}. If it was not you, ignore this email. The link works once, for 15 minutes.',
      ],
      'Sign in',
    ),
    whatsapp: null,
    sample: { ...learner, actionUrl: 'https://app.fundi.example/learn/link?token=abc123' },
  },
  {
    key: 'portal_code',
    order: 190,
    audience: 'learner',
    trigger: 'a learner asks to sign in to the learner portal with their mobile number (WhatsApp only)',
    email: null,
    whatsapp: whatsapp('portal_code', ['learner.firstName', 'portal.code']),
    sample: { 'learner.firstName': 'Thandi', 'portal.code': '482913' },
  },
  {
    key: 'logbook_sign_off',
    order: 200,
    audience: 'learner',
    trigger: "a learner's logbook entry is submitted: sent to its workplace supervisor (the link works 14 days)",
    email: email(
      '{{learner.firstName}} asks you to sign their logbook',
      [
        'Hi {{recipient.firstName}},',
        '{{learner.firstName}} recorded workplace hours with {{organisation.name}} and named you as their supervisor. Please confirm them, or query them with a comment.',
      ],
      'Review the hours',
    ),
    whatsapp: whatsapp('logbook_sign_off', ['recipient.firstName', 'learner.firstName', 'actionUrl']),
    sample: {
      'recipient.firstName': 'Sipho',
      'learner.firstName': 'Thandi Nkosi',
      'organisation.name': 'Ubuntu Skills Academy',
      actionUrl: 'https://app.fundi.example/learn/sign-off?token=abc123',
    },
  },
];

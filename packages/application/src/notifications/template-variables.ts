import { DomainError, type ErrorDetail } from '@fundi/domain';

/**
 * Every variable a template may name, with what it holds. The first eleven are the service's published names; the
 * rest serve the staff and admin notifications and the messaging channel's `task`.
 */
export const TEMPLATE_VARIABLES = {
  'learner.firstName': "the learner's first name",
  'learner.lastName': "the learner's last name",
  'learner.email': "the learner's email address",
  'programme.name': "the programme's name",
  'module.name': "the module's name",
  'assessment.result': 'the assessment outcome (competent, not yet competent)',
  'evidence.type': 'what kind of evidence was submitted (portfolio, logbook, ...)',
  'evidence.feedback': "the reviewer's feedback on the evidence",
  'deadline.date': 'the due date, YYYY-MM-DD',
  'organisation.name': "the training provider's name",
  actionUrl: 'the link the notification asks the reader to open (http or https)',
  'recipient.firstName': 'the first name of the staff member or admin it is sent to',
  'deadline.task': 'what is due',
  'milestone.name': 'the programme milestone reached',
  'report.name': 'the report that is ready',
  'export.type': 'what was exported (learners, enrolments, ...)',
  'quota.percent': 'storage used, as a whole percentage of the plan',
  'webhook.url': 'the address of the disabled webhook subscription',
  'alert.summary': 'what the security alert is about',
  'inviter.name': 'who sent the invitation',
  'sample.size': 'how many assessments a moderation sample holds',
  'portal.code': 'the six-digit code that signs a learner in to the learner portal',
} as const;

export type TemplateVariable = keyof typeof TEMPLATE_VARIABLES;

/** The messaging channel's published variable names, and the variables they are. */
export const MESSAGING_ALIASES: Readonly<Record<string, TemplateVariable>> = {
  learner_name: 'learner.firstName',
  evidence_type: 'evidence.type',
  module_name: 'module.name',
  feedback: 'evidence.feedback',
  result: 'assessment.result',
  task: 'deadline.task',
  due_date: 'deadline.date',
};

export function isTemplateVariable(name: string): name is TemplateVariable {
  return Object.hasOwn(TEMPLATE_VARIABLES, name);
}

/** Values for rendering, by variable. Made only by `templateValues`. */
export type TemplateValues = ReadonlyMap<TemplateVariable, string>;

/**
 * Reads the `variables` of a notification request: string values keyed by variable name or messaging alias.
 * DomainError('invalid') naming every offending key: an unknown name (`unknown_template_variable`), a value that
 * is not a string, an alias that contradicts its variable, or an `actionUrl` that is no http(s) URL.
 */
export function templateValues(input: Readonly<Record<string, unknown>>): TemplateValues {
  const values = new Map<TemplateVariable, string>();
  const errors: ErrorDetail[] = [];
  let unknown = false;
  for (const [key, value] of Object.entries(input)) {
    const field = `variables.${key}`;
    const name = isTemplateVariable(key) ? key : MESSAGING_ALIASES[key];
    if (!name) {
      unknown = true;
      errors.push({ field, message: `unknown template variable "${key}"` });
    } else if (typeof value !== 'string') {
      errors.push({ field, message: 'must be a string' });
    } else if (values.has(name) && values.get(name) !== value) {
      errors.push({ field, message: `contradicts the value given for ${name}` });
    } else if (name === 'actionUrl' && !isWebUrl(value)) {
      errors.push({ field, message: 'must be an http or https URL' });
    } else {
      values.set(name, value);
    }
  }
  if (errors.length) {
    throw new DomainError(
      'invalid',
      unknown ? 'unknown_template_variable' : 'invalid_template_variable',
      `${errors[0]!.field}: ${errors[0]!.message}`,
      errors,
    );
  }
  return values;
}

function isWebUrl(value: string): boolean {
  return URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol);
}

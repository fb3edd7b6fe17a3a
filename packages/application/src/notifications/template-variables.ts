import { DomainError, type ErrorDetail } from '@fundi/domain';
import type { OfferedVariable, SharedVariable } from '../common/triggers.js';

/**
 * The variables the notifications' own triggers supply, which any template may name, with what each holds and its
 * messaging channel alias. The first nine are the service's published names; the rest serve the staff and admin
 * notifications and the messaging channel's `task`. Other capabilities offer theirs with their triggers.
 */
export const SHARED_VARIABLES: Readonly<Record<SharedVariable, OfferedVariable>> = {
  'learner.firstName': { about: "the learner's first name", alias: 'learner_name' },
  'learner.lastName': { about: "the learner's last name" },
  'learner.email': { about: "the learner's email address" },
  'programme.name': { about: "the programme's name" },
  'module.name': { about: "the module's name", alias: 'module_name' },
  'assessment.result': { about: 'the assessment outcome (competent, not yet competent)', alias: 'result' },
  'deadline.date': { about: 'the due date, YYYY-MM-DD', alias: 'due_date' },
  'organisation.name': { about: "the training provider's name" },
  actionUrl: { about: 'the link the notification asks the reader to open (http or https)' },
  'recipient.firstName': { about: 'the first name of the staff member or admin it is sent to' },
  'deadline.task': { about: 'what is due', alias: 'task' },
  'milestone.name': { about: 'the programme milestone reached' },
  'report.name': { about: 'the report that is ready' },
  'quota.percent': { about: 'storage used, as a whole percentage of the plan' },
  'webhook.url': { about: 'the address of the disabled webhook subscription' },
  'alert.summary': { about: 'what the security alert is about' },
  'inviter.name': { about: 'who sent the invitation' },
  'sample.size': { about: 'how many assessments a moderation sample holds' },
  'portal.code': { about: 'the six-digit code that signs a learner in to the learner portal' },
};

/** A variable's name: a shared one, or one a capability offers with its triggers. */
export type TemplateVariable = string;

/** The variables templates may name (`TriggerCatalogue`): every capability's, and their messaging aliases. */
export interface Vocabulary {
  isVariable(name: string): boolean;
  /** The variable a name or messaging alias is, if any. */
  variableOf(name: string): string | undefined;
}

/** Values for rendering, by variable. Made only by `templateValues`. */
export type TemplateValues = ReadonlyMap<TemplateVariable, string>;

/**
 * Reads the `variables` of a notification request: string values keyed by variable name or messaging alias.
 * DomainError('invalid') naming every offending key: an unknown name (`unknown_template_variable`), a value that
 * is not a string, an alias that contradicts its variable, or an `actionUrl` that is no http(s) URL.
 */
export function templateValues(input: Readonly<Record<string, unknown>>, known: Vocabulary): TemplateValues {
  const values = new Map<TemplateVariable, string>();
  const errors: ErrorDetail[] = [];
  let unknown = false;
  for (const [key, value] of Object.entries(input)) {
    const field = `variables.${key}`;
    const name = known.variableOf(key);
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

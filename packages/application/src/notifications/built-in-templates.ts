import { DomainError } from '@fundi/domain';
import { ADMIN_TEMPLATES } from './admin-templates.js';
import { LEARNER_TEMPLATES } from './learner-templates.js';
import { STAFF_TEMPLATES } from './staff-templates.js';
import type { TemplateDefinition, TemplateKey } from './template-definition.js';

export type { TemplateDefinition, TemplateKey } from './template-definition.js';

/**
 * The order the templates are listed in (template lists, trigger switches, error messages): the order they were
 * added in, which is not grouped by audience.
 */
const ORDER: readonly TemplateKey[] = [
  'welcome',
  'evidence_approved',
  'evidence_revision',
  'assessment_result',
  'programme_complete',
  'deadline_reminder',
  'new_evidence',
  'moderation_due',
  'report_ready',
  'user_invited',
  'security_alert',
  'export_complete',
  'quota_warning',
  'webhook_disabled',
  'contact_bounced',
  'password_reset',
  'programme_milestone',
  'portal_sign_in',
  'portal_code',
  'logbook_sign_off',
];

const ALL = [...LEARNER_TEMPLATES, ...STAFF_TEMPLATES, ...ADMIN_TEMPLATES];

export const BUILT_IN_TEMPLATES: readonly TemplateDefinition[] = ORDER.map((k) => ALL.find((t) => t.key === k)!);

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

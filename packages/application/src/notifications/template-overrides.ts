import { DomainError, type ErrorDetail } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { TemplateDefinition } from './built-in-templates.js';
import type { TriggerCatalogue } from './trigger-catalogue.js';
import type { TemplateVariable, Vocabulary } from './template-variables.js';
import { checkEmailTemplate, templateVariablesOf, type EmailTemplate } from './templates.js';

/** 403 unless the actor is an admin: templates and settings are an administrator's. */
export function requireNotificationAdmin(actor: Actor): void {
  if (actor.role !== 'admin')
    throw DomainError.forbidden('Notification templates and settings are managed by administrators (an admin key)');
}

/** The variables a template's trigger supplies: what an override of it may name. */
export function variablesFor(def: TemplateDefinition, known: Pick<Vocabulary, 'isVariable'>): TemplateVariable[] {
  const own = new Set<TemplateVariable>(['organisation.name']);
  for (const part of def.email ? [def.email.subject, def.email.html, def.email.text] : [])
    for (const v of templateVariablesOf(part, known)) own.add(v);
  for (const v of def.whatsapp?.parameters ?? []) own.add(v);
  if (def.audience === 'learner')
    for (const v of ['learner.firstName', 'learner.lastName', 'learner.email'] as const) own.add(v);
  else {
    own.add('recipient.firstName');
    own.add('actionUrl');
  }
  return [...own];
}

export interface TemplateSummary {
  key: string;
  audience: 'learner' | 'staff' | 'admin';
  description: string;
  channels: ('email' | 'whatsapp')[];
  overridden: boolean;
  variables: string[];
}

export interface TemplateDetail extends TemplateSummary {
  source: 'default' | 'override';
  email: EmailTemplate | null;
  whatsapp: { name: string; language: string; parameters: string[] } | null;
  sample: Record<string, string>;
  updatedAt: string | null;
}

export const summary = (
  def: TemplateDefinition,
  overridden: boolean,
  known: Pick<Vocabulary, 'isVariable'>,
): TemplateSummary => ({
  key: def.key,
  audience: def.audience,
  description: def.trigger,
  channels: [...(def.email ? (['email'] as const) : []), ...(def.whatsapp ? (['whatsapp'] as const) : [])],
  overridden,
  variables: variablesFor(def, known),
});

/** Checks a tenant's email version of `key`: every part compiles and names only what the trigger supplies. */
export function checkOverride(key: string, t: EmailTemplate, catalogue: TriggerCatalogue): TemplateDefinition {
  const def = catalogue.template(key);
  if (!def.email) throw DomainError.invalid('template', `${key} has no email version`, 'template_channel');
  for (const [f, v] of Object.entries(t))
    if (typeof v !== 'string' || v.length > 100_000)
      throw DomainError.invalid(f, 'must be a string of at most 100,000 characters');
  checkEmailTemplate(t, catalogue);
  const allowed = new Set(variablesFor(def, catalogue));
  const errors: ErrorDetail[] = [];
  for (const part of ['subject', 'html', 'text'] as const)
    for (const v of templateVariablesOf(t[part], catalogue, part))
      if (!allowed.has(v))
        errors.push({
          field: part,
          message: `{{${v}}} is not available in ${key}; available: ${[...allowed].join(', ')}`,
        });
  if (errors.length)
    throw new DomainError('invalid', 'unknown_template_variable', `${errors[0]!.field}: ${errors[0]!.message}`, errors);
  return def;
}

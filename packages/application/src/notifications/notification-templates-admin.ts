import { DomainError, type ErrorDetail } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { BUILT_IN_TEMPLATES, builtInTemplate, type TemplateDefinition } from './built-in-templates.js';
import type { NotificationPorts } from './notification-ports.js';
import { templateValues, type TemplateVariable } from './template-variables.js';
import {
  checkEmailTemplate,
  renderEmail,
  templateVariablesOf,
  type EmailTemplate,
  type RenderedEmail,
} from './templates.js';

export function requireNotificationAdmin(actor: Actor): void {
  if (actor.role !== 'admin')
    throw DomainError.forbidden('Notification templates and settings are managed by administrators (an admin key)');
}

/** The variables a template's trigger supplies: what an override of it may name. */
export function variablesFor(def: TemplateDefinition): TemplateVariable[] {
  const own = new Set<TemplateVariable>(['organisation.name']);
  for (const part of def.email ? [def.email.subject, def.email.html, def.email.text] : [])
    for (const v of templateVariablesOf(part)) own.add(v);
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

const summary = (def: TemplateDefinition, overridden: boolean): TemplateSummary => ({
  key: def.key,
  audience: def.audience,
  description: def.trigger,
  channels: [...(def.email ? (['email'] as const) : []), ...(def.whatsapp ? (['whatsapp'] as const) : [])],
  overridden,
  variables: variablesFor(def),
});

/** Email template overrides, with a preview (docs/api.md, "Notifications", "Templates and settings"). */
export class NotificationTemplatesAdmin {
  constructor(private readonly d: NotificationPorts) {}

  async listTemplates(actor: Actor): Promise<{ data: TemplateSummary[] }> {
    const overridden = new Set((await this.d.repos.notificationTemplates.list(actor.tenantId)).map((t) => t.key));
    return { data: BUILT_IN_TEMPLATES.map((d) => summary(d, overridden.has(d.key))) };
  }

  async getTemplate(actor: Actor, key: string): Promise<TemplateDetail> {
    const def = this.known(key);
    const o = await this.d.repos.notificationTemplates.get(actor.tenantId, key);
    return {
      ...summary(def, o !== null),
      source: o ? 'override' : 'default',
      email: o ? { subject: o.subject, html: o.html, text: o.text } : def.email,
      whatsapp: def.whatsapp ? { ...def.whatsapp, parameters: [...def.whatsapp.parameters] } : null,
      sample: { ...def.sample } as Record<string, string>,
      updatedAt: o?.updatedAt ?? null,
    };
  }

  /** Stores the tenant's own email version; every part must compile and name only what the trigger supplies. */
  async putTemplate(actor: Actor, key: string, t: EmailTemplate): Promise<TemplateDetail> {
    requireNotificationAdmin(actor);
    const def = this.checkOverride(key, t);
    const now = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      await tx.notificationTemplates.put(actor.tenantId, { key, ...t, updatedAt: now.toISOString() });
      await recordChange(tx, actor, now, {
        action: 'notification_template.updated',
        resourceType: 'notification_template',
        resourceId: def.key,
      });
    });
    return this.getTemplate(actor, key);
  }

  /** Back to the built-in version (204 whether or not there was an override). */
  async resetTemplate(actor: Actor, key: string): Promise<void> {
    requireNotificationAdmin(actor);
    const def = this.known(key);
    const now = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      if (await tx.notificationTemplates.delete(actor.tenantId, key))
        await recordChange(tx, actor, now, {
          action: 'notification_template.reset',
          resourceType: 'notification_template',
          resourceId: def.key,
        });
    });
  }

  /**
   * Renders a template as it would be sent: the given parts (a draft being edited) or the tenant's current version,
   * with the template's sample values, overridden by `variables`.
   */
  async preview(
    actor: Actor,
    key: string,
    body: { subject?: string; html?: string; text?: string; variables?: Record<string, unknown> },
  ): Promise<RenderedEmail> {
    const def = this.known(key);
    const current = (await this.getTemplate(actor, key)).email;
    if (!current) throw DomainError.invalid('template', `${key} has no email version`, 'template_channel');
    const t = {
      subject: body.subject ?? current.subject,
      html: body.html ?? current.html,
      text: body.text ?? current.text,
    };
    this.checkOverride(key, t);
    const given = templateValues(body.variables ?? {});
    const values = new Map(templateValues(def.sample as Record<string, string>));
    const tenant = await this.d.repos.tenants.findById(actor.tenantId);
    if (tenant) values.set('organisation.name', tenant.name);
    if (def.audience !== 'learner' && !values.has('actionUrl'))
      values.set('actionUrl', `${this.d.settings.publicUrl || 'https://fundi.example'}/dashboard`);
    for (const [k, v] of given) values.set(k, v);
    return renderEmail(t, values);
  }

  private known(key: string): TemplateDefinition {
    return builtInTemplate(key);
  }

  private checkOverride(key: string, t: EmailTemplate): TemplateDefinition {
    const def = this.known(key);
    if (!def.email) throw DomainError.invalid('template', `${key} has no email version`, 'template_channel');
    for (const [f, v] of Object.entries(t))
      if (typeof v !== 'string' || v.length > 100_000)
        throw DomainError.invalid(f, 'must be a string of at most 100,000 characters');
    checkEmailTemplate(t);
    const allowed = new Set(variablesFor(def));
    const errors: ErrorDetail[] = [];
    for (const part of ['subject', 'html', 'text'] as const)
      for (const v of templateVariablesOf(t[part], part))
        if (!allowed.has(v))
          errors.push({
            field: part,
            message: `{{${v}}} is not available in ${key}; available: ${[...allowed].join(', ')}`,
          });
    if (errors.length)
      throw new DomainError(
        'invalid',
        'unknown_template_variable',
        `${errors[0]!.field}: ${errors[0]!.message}`,
        errors,
      );
    return def;
  }
}

import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { NotificationPorts } from './notification-ports.js';
import { templateValues } from './template-variables.js';
import { catalogueOf } from './trigger-catalogue.js';
import { renderEmail, type RenderedEmail } from './templates.js';
import { checkOverride } from './template-overrides.js';
import type { GetNotificationTemplate } from './get-notification-template.js';

/**
 * Renders a template as it would be sent: the given parts (a draft being edited) or the tenant's current version,
 * with the template's sample values, overridden by `variables`.
 */
export class PreviewNotificationTemplate {
  constructor(
    private readonly d: NotificationPorts,
    private readonly getTemplate: GetNotificationTemplate,
  ) {}

  async execute(
    actor: Actor,
    key: string,
    body: { subject?: string; html?: string; text?: string; variables?: Record<string, unknown> },
  ): Promise<RenderedEmail> {
    const catalogue = catalogueOf(this.d);
    const def = catalogue.template(key);
    const current = (await this.getTemplate.execute(actor, key)).email;
    if (!current) throw DomainError.invalid('template', `${key} has no email version`, 'template_channel');
    const t = {
      subject: body.subject ?? current.subject,
      html: body.html ?? current.html,
      text: body.text ?? current.text,
    };
    checkOverride(key, t, catalogue);
    const given = templateValues(body.variables ?? {}, catalogue);
    const values = new Map(templateValues(def.sample, catalogue));
    const tenant = await this.d.repos.tenants.findById(actor.tenantId);
    if (tenant) values.set('organisation.name', tenant.name);
    if (def.audience !== 'learner' && !values.has('actionUrl'))
      values.set('actionUrl', `${this.d.settings.publicUrl || 'https://fundi.example'}/dashboard`);
    for (const [k, v] of given) values.set(k, v);
    return renderEmail(t, values, catalogue);
  }
}

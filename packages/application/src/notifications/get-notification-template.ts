import type { Actor } from '../common/actor.js';
import type { NotificationPorts } from './notification-ports.js';
import { summary, type TemplateDetail } from './template-overrides.js';
import { catalogueOf } from './trigger-catalogue.js';

/** One template as the tenant sends it: its override, or the built-in version. */
export class GetNotificationTemplate {
  constructor(private readonly d: NotificationPorts) {}

  async execute(actor: Actor, key: string): Promise<TemplateDetail> {
    const catalogue = catalogueOf(this.d);
    const def = catalogue.template(key);
    const o = await this.d.repos.notificationTemplates.get(actor.tenantId, key);
    return {
      ...summary(def, o !== null, catalogue),
      source: o ? 'override' : 'default',
      email: o ? { subject: o.subject, html: o.html, text: o.text } : def.email,
      whatsapp: def.whatsapp ? { ...def.whatsapp, parameters: [...def.whatsapp.parameters] } : null,
      sample: { ...def.sample } as Record<string, string>,
      updatedAt: o?.updatedAt ?? null,
    };
  }
}

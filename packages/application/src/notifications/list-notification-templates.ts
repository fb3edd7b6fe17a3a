import type { Actor } from '../common/actor.js';
import type { NotificationPorts } from './notification-ports.js';
import { summary, type TemplateSummary } from './template-overrides.js';
import { catalogueOf } from './trigger-catalogue.js';

/** The built-in templates, each with whether the tenant overrides its email version. */
export class ListNotificationTemplates {
  constructor(private readonly d: NotificationPorts) {}

  async execute(actor: Actor): Promise<{ data: TemplateSummary[] }> {
    const overridden = new Set((await this.d.repos.notificationTemplates.list(actor.tenantId)).map((t) => t.key));
    const catalogue = catalogueOf(this.d);
    return { data: catalogue.templates.map((d) => summary(d, overridden.has(d.key), catalogue)) };
  }
}

import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { NotificationPorts } from './notification-ports.js';
import type { EmailTemplate } from './templates.js';
import { checkOverride, requireNotificationAdmin, type TemplateDetail } from './template-overrides.js';
import { catalogueOf } from './trigger-catalogue.js';
import type { GetNotificationTemplate } from './get-notification-template.js';

/** Stores the tenant's own email version; every part must compile and name only what the trigger supplies. */
export class PutNotificationTemplate {
  constructor(
    private readonly d: NotificationPorts,
    private readonly getTemplate: GetNotificationTemplate,
  ) {}

  async execute(actor: Actor, key: string, t: EmailTemplate): Promise<TemplateDetail> {
    requireNotificationAdmin(actor);
    const def = checkOverride(key, t, catalogueOf(this.d));
    const now = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      await tx.notificationTemplates.put(actor.tenantId, { key, ...t, updatedAt: now.toISOString() });
      await recordChange(tx, actor, now, {
        action: 'notification_template.updated',
        resourceType: 'notification_template',
        resourceId: def.key,
      });
    });
    return this.getTemplate.execute(actor, key);
  }
}

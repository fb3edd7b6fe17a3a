import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { NotificationPorts } from './notification-ports.js';
import { requireNotificationAdmin } from './template-overrides.js';
import { catalogueOf } from './trigger-catalogue.js';

/** Back to the built-in version (204 whether or not there was an override). */
export class ResetNotificationTemplate {
  constructor(private readonly d: NotificationPorts) {}

  async execute(actor: Actor, key: string): Promise<void> {
    requireNotificationAdmin(actor);
    const def = catalogueOf(this.d).template(key);
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
}

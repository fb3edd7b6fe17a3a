import { randomBytes } from 'node:crypto';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { NotificationPorts } from './notification-ports.js';
import { emptySettings } from './notification-settings-view.js';
import { requireNotificationAdmin } from './template-overrides.js';

/** A new secret for signed email callbacks, shown only in this answer. */
export class RotateCallbackSecret {
  constructor(private readonly d: NotificationPorts) {}

  async execute(actor: Actor): Promise<{ secret: string }> {
    requireNotificationAdmin(actor);
    const secret = `ncb_${randomBytes(32).toString('base64url')}`;
    const now = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      const cur = (await tx.notificationSettings.get(actor.tenantId)) ?? emptySettings(actor.tenantId);
      await tx.notificationSettings.put({
        ...cur,
        callbackSecretCiphertext: this.d.box.seal(secret),
        updatedAt: now.toISOString(),
      });
      await recordChange(tx, actor, now, {
        action: 'notification_settings.callback_secret_rotated',
        resourceType: 'notification_settings',
        resourceId: actor.tenantId,
      });
    });
    return { secret };
  }
}

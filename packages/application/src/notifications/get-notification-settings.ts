import type { Actor } from '../common/actor.js';
import type { NotificationPorts } from './notification-ports.js';
import { emptySettings, settingsView, type SettingsView } from './notification-settings-view.js';
import { catalogueOf } from './trigger-catalogue.js';

/** The tenant's notification settings, secrets left out (docs/api.md, "Notifications"). */
export class GetNotificationSettings {
  constructor(private readonly d: NotificationPorts) {}

  async execute(actor: Actor): Promise<SettingsView> {
    const s = (await this.d.repos.notificationSettings.get(actor.tenantId)) ?? emptySettings(actor.tenantId);
    return settingsView(s, catalogueOf(this.d).keys);
  }
}

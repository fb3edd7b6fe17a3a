import type { NotificationPorts } from './notification-ports.js';
import { GetNotificationSettings } from './get-notification-settings.js';
import { PutNotificationSettings } from './put-notification-settings.js';
import { ResealNotificationSecrets } from './reseal-notification-secrets.js';
import { RotateCallbackSecret } from './rotate-callback-secret.js';
import { SendTestEmail } from './send-test-email.js';

export type { SettingsView } from './notification-settings-view.js';

/** Per-tenant notification settings: trigger switches, SMTP, WhatsApp, the callback secret (docs/api.md, "Notifications"). */
export interface NotificationSettingsAdmin {
  getSettings: GetNotificationSettings;
  putSettings: PutNotificationSettings;
  rotateCallbackSecret: RotateCallbackSecret;
  sendTestEmail: SendTestEmail;
  /** After a master key rotation (`npm run fundi -- keys rewrap`). */
  resealSecrets: ResealNotificationSecrets;
}

export function notificationSettingsAdmin(d: NotificationPorts): NotificationSettingsAdmin {
  return {
    getSettings: new GetNotificationSettings(d),
    putSettings: new PutNotificationSettings(d),
    rotateCallbackSecret: new RotateCallbackSecret(d),
    sendTestEmail: new SendTestEmail(d),
    resealSecrets: new ResealNotificationSecrets(d),
  };
}

import type { NotificationPorts } from './notification-ports.js';

/** Seals every stored secret again under the current master key (after a rotation); returns how many tenants. */
export class ResealNotificationSecrets {
  constructor(private readonly d: NotificationPorts) {}

  async execute(): Promise<number> {
    const all = await this.d.repos.notificationSettings.listWithSecrets();
    const again = (c: string) => this.d.box.seal(this.d.box.open(c));
    for (const s of all)
      await this.d.repos.notificationSettings.put({
        ...s,
        smtp: s.smtp
          ? { ...s.smtp, passwordCiphertext: s.smtp.passwordCiphertext ? again(s.smtp.passwordCiphertext) : null }
          : null,
        whatsapp: s.whatsapp
          ? {
              ...s.whatsapp,
              accessTokenCiphertext: again(s.whatsapp.accessTokenCiphertext),
              appSecretCiphertext: again(s.whatsapp.appSecretCiphertext),
            }
          : null,
        callbackSecretCiphertext: s.callbackSecretCiphertext ? again(s.callbackSecretCiphertext) : null,
      });
    return all.length;
  }
}

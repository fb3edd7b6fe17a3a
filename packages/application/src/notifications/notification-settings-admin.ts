import { randomBytes } from 'node:crypto';
import { DomainError, mailboxAddress, type ErrorDetail, type StoredNotificationSettings } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { TemplateKey } from './built-in-templates.js';
import { smtpOf, whatsappOf, type WhatsAppStored } from './channel-settings.js';
import type { NotificationPorts } from './notification-ports.js';
import { emptySettings, settingsView, TRIGGER_KEYS, type SettingsView } from './notification-settings-view.js';
import { requireNotificationAdmin } from './notification-templates-admin.js';

export { TRIGGER_KEYS, type SettingsView } from './notification-settings-view.js';

/** Per-tenant notification settings: trigger switches, SMTP, WhatsApp, the callback secret (docs/api.md, "Notifications"). */
export class NotificationSettingsAdmin {
  constructor(private readonly d: NotificationPorts) {}

  async getSettings(actor: Actor): Promise<SettingsView> {
    return settingsView((await this.d.repos.notificationSettings.get(actor.tenantId)) ?? emptySettings(actor.tenantId));
  }

  /**
   * Changes the settings: `triggers` merges switch by switch; `smtp` and `whatsapp` replace the account (null removes
   * it), keeping a stored password, token or app secret the body leaves out. Every field error is reported at once.
   */
  async putSettings(actor: Actor, body: Record<string, unknown>): Promise<SettingsView> {
    requireNotificationAdmin(actor);
    const cur = (await this.d.repos.notificationSettings.get(actor.tenantId)) ?? emptySettings(actor.tenantId);
    const errors: ErrorDetail[] = [];
    const triggers = { ...cur.triggers };
    if (body.triggers !== undefined) {
      if (typeof body.triggers !== 'object' || body.triggers === null || Array.isArray(body.triggers))
        errors.push({ field: 'triggers', message: 'must be an object of trigger switches' });
      else
        for (const [k, v] of Object.entries(body.triggers)) {
          if (!TRIGGER_KEYS.includes(k as TemplateKey))
            errors.push({ field: `triggers.${k}`, message: `unknown trigger; one of ${TRIGGER_KEYS.join(', ')}` });
          else if (typeof v !== 'boolean') errors.push({ field: `triggers.${k}`, message: 'must be true or false' });
          else triggers[k] = v;
        }
    }
    const smtp =
      body.smtp === undefined ? cur.smtp : body.smtp === null ? null : smtpOf(body.smtp, cur.smtp, errors, this.d.box);
    const whatsapp =
      body.whatsapp === undefined
        ? cur.whatsapp
        : body.whatsapp === null
          ? null
          : whatsappOf(body.whatsapp, cur.whatsapp as WhatsAppStored | null, errors, this.d.box);
    if (!errors.length && smtp && body.smtp) await this.checkHost(`smtp://${smtp.host}`, 'smtp.host', errors);
    if (!errors.length && whatsapp && body.whatsapp) await this.checkHost(whatsapp.baseUrl, 'whatsapp.baseUrl', errors);
    if (errors.length) throw DomainError.invalidMany(errors);
    const now = this.d.clock.now();
    const next: StoredNotificationSettings = { ...cur, triggers, smtp, whatsapp, updatedAt: now.toISOString() };
    await this.d.uow.run(async (tx) => {
      await tx.notificationSettings.put(next);
      await recordChange(tx, actor, now, {
        action: 'notification_settings.updated',
        resourceType: 'notification_settings',
        resourceId: actor.tenantId,
        details: { fields: Object.keys(body).filter((k) => ['triggers', 'smtp', 'whatsapp'].includes(k)) },
      });
    });
    return settingsView(next);
  }

  private async checkHost(url: string, field: string, errors: ErrorDetail[]): Promise<void> {
    try {
      await this.d.settings.checkHost(url, field);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      errors.push(...(e.details.length ? e.details : [{ field, message: e.message }]));
    }
  }

  /** A new secret for signed email callbacks, shown only in this answer. */
  async rotateCallbackSecret(actor: Actor): Promise<{ secret: string }> {
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

  /** Sends a test email now through the tenant's SMTP server (or the default), answering what the server said. */
  async sendTestEmail(
    actor: Actor,
    to: unknown,
  ): Promise<{ sent: boolean; messageId: string | null; error: string | null }> {
    requireNotificationAdmin(actor);
    if (typeof to !== 'string') throw DomainError.invalid('to', 'must be an email address');
    mailboxAddress(to, 'to');
    const s = await this.d.repos.notificationSettings.get(actor.tenantId);
    const smtp = s?.smtp
      ? {
          ...s.smtp,
          password: s.smtp.passwordCiphertext ? this.d.box.open(s.smtp.passwordCiphertext) : null,
        }
      : null;
    const { mailer, from } = this.d.channels.mailer(smtp);
    const tenant = await this.d.repos.tenants.findById(actor.tenantId);
    const r = await mailer.send({
      from,
      to,
      subject: `Test email from ${tenant?.name ?? 'Fundi'}`,
      html: '<p>This is a test of your Fundi mail settings. It arrived, so they work.</p>',
      text: 'This is a test of your Fundi mail settings. It arrived, so they work.\n',
      headers: {},
    });
    return r.ok
      ? { sent: true, messageId: r.messageId, error: null }
      : {
          sent: false,
          messageId: null,
          error: `${r.failure.reason}${r.failure.code ? ` (${r.failure.code})` : ''}: ${r.failure.detail}`,
        };
  }

  /** Seals every stored secret again under the current master key (after a rotation); returns how many tenants. */
  async resealSecrets(): Promise<number> {
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

import { DomainError, type ErrorDetail } from '@fundi/domain';
import type { StoredNotificationSettings } from '@fundi/domain/notifications';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { smtpOf, whatsappOf, type WhatsAppStored } from './channel-settings.js';
import type { NotificationPorts } from './notification-ports.js';
import { emptySettings, settingsView, type SettingsView } from './notification-settings-view.js';
import { catalogueOf } from './trigger-catalogue.js';
import { requireNotificationAdmin } from './template-overrides.js';

/**
 * Changes the settings: `triggers` merges switch by switch; `smtp` and `whatsapp` replace the account (null removes
 * it), keeping a stored password, token or app secret the body leaves out. Every field error is reported at once.
 */
export class PutNotificationSettings {
  constructor(private readonly d: NotificationPorts) {}

  async execute(actor: Actor, body: Record<string, unknown>): Promise<SettingsView> {
    requireNotificationAdmin(actor);
    const cur = (await this.d.repos.notificationSettings.get(actor.tenantId)) ?? emptySettings(actor.tenantId);
    const catalogue = catalogueOf(this.d);
    const keys = catalogue.keys;
    const errors: ErrorDetail[] = [];
    const triggers = { ...cur.triggers };
    if (body.triggers !== undefined) {
      if (typeof body.triggers !== 'object' || body.triggers === null || Array.isArray(body.triggers))
        errors.push({ field: 'triggers', message: 'must be an object of trigger switches' });
      else
        for (const [k, v] of Object.entries(body.triggers)) {
          if (!keys.includes(k))
            errors.push({ field: `triggers.${k}`, message: `unknown trigger; one of ${keys.join(', ')}` });
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
          : whatsappOf(body.whatsapp, cur.whatsapp as WhatsAppStored | null, errors, this.d.box, catalogue);
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
    return settingsView(next, keys);
  }

  private async checkHost(url: string, field: string, errors: ErrorDetail[]): Promise<void> {
    try {
      await this.d.settings.checkHost(url, field);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      errors.push(...(e.details.length ? e.details : [{ field, message: e.message }]));
    }
  }
}

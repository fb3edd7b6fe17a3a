import { randomBytes } from 'node:crypto';
import {
  DomainError,
  mailboxAddress,
  type ErrorDetail,
  type StoredNotificationSettings,
  type StoredSmtpSettings,
  type StoredWhatsAppSettings,
} from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { BUILT_IN_TEMPLATES, type TemplateKey } from './built-in-templates.js';
import type { NotificationPorts } from './notification-ports.js';

import { requireNotificationAdmin } from './notification-templates-admin.js';

/** Every trigger's switch key: the template key it sends. */
export const TRIGGER_KEYS: readonly TemplateKey[] = BUILT_IN_TEMPLATES.map((t) => t.key);

export interface SettingsView {
  triggers: Record<string, boolean>;
  smtp: { host: string; port: number; secure: boolean; user: string | null; from: string; passwordSet: boolean } | null;
  whatsapp: {
    phoneNumberId: string;
    baseUrl: string;
    apiVersion: string;
    verifyToken: string;
    accessTokenSet: boolean;
    appSecretSet: boolean;
    templates: Record<string, { name: string; language: string }>;
  } | null;
  callbackSecretSet: boolean;
  updatedAt: string | null;
}

type WhatsAppStored = StoredWhatsAppSettings;

const empty = (tenantId: string): StoredNotificationSettings => ({
  tenantId,
  triggers: {},
  smtp: null,
  whatsapp: null,
  callbackSecretCiphertext: null,
  updatedAt: '',
});

/** Per-tenant notification settings: trigger switches, SMTP, WhatsApp, the callback secret (docs/api.md, "Notifications"). */
export class NotificationSettingsAdmin {
  constructor(private readonly d: NotificationPorts) {}

  async getSettings(actor: Actor): Promise<SettingsView> {
    return this.view((await this.d.repos.notificationSettings.get(actor.tenantId)) ?? empty(actor.tenantId));
  }

  private view(s: StoredNotificationSettings): SettingsView {
    const wa = s.whatsapp as WhatsAppStored | null;
    return {
      triggers: Object.fromEntries(TRIGGER_KEYS.map((k) => [k, s.triggers[k] !== false])),
      smtp: s.smtp
        ? {
            host: s.smtp.host,
            port: s.smtp.port,
            secure: s.smtp.secure,
            user: s.smtp.user,
            from: s.smtp.from,
            passwordSet: s.smtp.passwordCiphertext !== null,
          }
        : null,
      whatsapp: wa
        ? {
            phoneNumberId: wa.phoneNumberId,
            baseUrl: wa.baseUrl,
            apiVersion: wa.apiVersion,
            verifyToken: wa.verifyToken,
            accessTokenSet: true,
            appSecretSet: true,
            templates: wa.templates ?? {},
          }
        : null,
      callbackSecretSet: s.callbackSecretCiphertext !== null,
      updatedAt: s.updatedAt || null,
    };
  }

  /**
   * Changes the settings: `triggers` merges switch by switch; `smtp` and `whatsapp` replace the account (null removes
   * it), keeping a stored password, token or app secret the body leaves out. Every field error is reported at once.
   */
  async putSettings(actor: Actor, body: Record<string, unknown>): Promise<SettingsView> {
    requireNotificationAdmin(actor);
    const cur = (await this.d.repos.notificationSettings.get(actor.tenantId)) ?? empty(actor.tenantId);
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
      body.smtp === undefined ? cur.smtp : body.smtp === null ? null : this.smtpOf(body.smtp, cur.smtp, errors);
    const whatsapp =
      body.whatsapp === undefined
        ? cur.whatsapp
        : body.whatsapp === null
          ? null
          : this.whatsappOf(body.whatsapp, cur.whatsapp as WhatsAppStored | null, errors);
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
    return this.view(next);
  }

  private async checkHost(url: string, field: string, errors: ErrorDetail[]): Promise<void> {
    try {
      await this.d.settings.checkHost(url, field);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      errors.push(...(e.details.length ? e.details : [{ field, message: e.message }]));
    }
  }

  private smtpOf(v: unknown, cur: StoredSmtpSettings | null, errors: ErrorDetail[]): StoredSmtpSettings | null {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      errors.push({ field: 'smtp', message: 'must be an object or null' });
      return null;
    }
    const x = v as Record<string, unknown>;
    const n = errors.length;
    if (typeof x.host !== 'string' || !/^[A-Za-z0-9.-]{1,253}$/.test(x.host))
      errors.push({ field: 'smtp.host', message: 'must be a host name or address' });
    if (!Number.isInteger(x.port) || (x.port as number) < 1 || (x.port as number) > 65535)
      errors.push({ field: 'smtp.port', message: 'must be a port number (1-65535)' });
    if (x.secure !== undefined && typeof x.secure !== 'boolean')
      errors.push({ field: 'smtp.secure', message: 'must be true (TLS from the start, port 465) or false (STARTTLS)' });
    if (x.user !== undefined && x.user !== null && (typeof x.user !== 'string' || x.user.length > 255))
      errors.push({ field: 'smtp.user', message: 'must be a string of at most 255 characters' });
    if (x.password !== undefined && x.password !== null && (typeof x.password !== 'string' || x.password.length > 1024))
      errors.push({ field: 'smtp.password', message: 'must be a string of at most 1,024 characters' });
    try {
      if (typeof x.from !== 'string') throw new Error();
      mailboxAddress(x.from, 'smtp.from');
    } catch {
      errors.push({ field: 'smtp.from', message: 'must be an address, or Name <address>' });
    }
    if (errors.length > n) return null;
    const password =
      x.password === undefined
        ? (cur?.passwordCiphertext ?? null)
        : x.password
          ? this.d.box.seal(x.password as string)
          : null;
    return {
      host: x.host as string,
      port: x.port as number,
      secure: (x.secure as boolean | undefined) ?? x.port === 465,
      user: (x.user as string | null | undefined) ?? null,
      passwordCiphertext: password,
      from: x.from as string,
    };
  }

  private whatsappOf(v: unknown, cur: WhatsAppStored | null, errors: ErrorDetail[]): WhatsAppStored | null {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      errors.push({ field: 'whatsapp', message: 'must be an object or null' });
      return null;
    }
    const x = v as Record<string, unknown>;
    const n = errors.length;
    if (typeof x.phoneNumberId !== 'string' || !/^\d{5,20}$/.test(x.phoneNumberId))
      errors.push({
        field: 'whatsapp.phoneNumberId',
        message: 'must be the phone number id (digits) of the Cloud API',
      });
    const token = x.accessToken ?? (cur ? undefined : null);
    if (
      token === null ||
      (token !== undefined && (typeof token !== 'string' || token.length < 10 || token.length > 4096))
    )
      errors.push({ field: 'whatsapp.accessToken', message: 'is required: the Cloud API access token' });
    const secret = x.appSecret ?? (cur ? undefined : null);
    if (
      secret === null ||
      (secret !== undefined && (typeof secret !== 'string' || secret.length < 8 || secret.length > 256))
    )
      errors.push({ field: 'whatsapp.appSecret', message: 'is required: the app secret that signs callbacks' });
    const baseUrl = x.baseUrl ?? 'https://graph.facebook.com';
    if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))
      errors.push({ field: 'whatsapp.baseUrl', message: 'must be an http(s) URL' });
    const apiVersion = x.apiVersion ?? 'v21.0';
    if (typeof apiVersion !== 'string' || !/^v\d{1,3}\.\d{1,3}$/.test(apiVersion))
      errors.push({ field: 'whatsapp.apiVersion', message: 'must look like v21.0' });
    const verifyToken = x.verifyToken ?? cur?.verifyToken ?? randomBytes(18).toString('base64url');
    if (typeof verifyToken !== 'string' || verifyToken.length < 8 || verifyToken.length > 256)
      errors.push({ field: 'whatsapp.verifyToken', message: 'must be 8 to 256 characters' });
    const templates = this.waTemplates(x.templates ?? cur?.templates ?? {}, errors);
    if (errors.length > n) return null;
    return {
      phoneNumberId: x.phoneNumberId as string,
      baseUrl: (baseUrl as string).replace(/\/+$/, ''),
      apiVersion: apiVersion as string,
      accessTokenCiphertext: token === undefined ? cur!.accessTokenCiphertext : this.d.box.seal(token as string),
      appSecretCiphertext: secret === undefined ? cur!.appSecretCiphertext : this.d.box.seal(secret as string),
      verifyToken: verifyToken as string,
      templates,
    };
  }

  private waTemplates(v: unknown, errors: ErrorDetail[]): Record<string, { name: string; language: string }> {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      errors.push({ field: 'whatsapp.templates', message: 'must map template keys to {name, language}' });
      return {};
    }
    const out: Record<string, { name: string; language: string }> = {};
    for (const [k, t] of Object.entries(v)) {
      const def = BUILT_IN_TEMPLATES.find((d) => d.key === k);
      const x = (t ?? {}) as Record<string, unknown>;
      if (!def?.whatsapp)
        errors.push({ field: `whatsapp.templates.${k}`, message: 'is no template with a WhatsApp version' });
      else if (typeof x.name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(x.name))
        errors.push({
          field: `whatsapp.templates.${k}.name`,
          message: 'must be the approved template name (a-z, 0-9, _)',
        });
      else if (typeof x.language !== 'string' || !/^[a-z]{2,3}(_[A-Z]{2})?$/.test(x.language))
        errors.push({ field: `whatsapp.templates.${k}.language`, message: 'must be a language code like en or en_US' });
      else out[k] = { name: x.name, language: x.language };
    }
    return out;
  }

  /** A new secret for signed email callbacks, shown only in this answer. */
  async rotateCallbackSecret(actor: Actor): Promise<{ secret: string }> {
    requireNotificationAdmin(actor);
    const secret = `ncb_${randomBytes(32).toString('base64url')}`;
    const now = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      const cur = (await tx.notificationSettings.get(actor.tenantId)) ?? empty(actor.tenantId);
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

import { join } from 'node:path';
import { ConfigError } from '../config-values.js';

/** The notifications' settings: default mail and WhatsApp channels, and the base of links in mail (docs/api.md, "Notifications"). */
export interface NotificationConfig {
  channels: {
    /** FUNDI_SMTP_URL (`smtp://user:pass@host:587`, `smtps://...`); null: mail goes to `outboxFolder`. */
    smtpUrl: string | null;
    /** FUNDI_SMTP_FROM: the default sender. */
    smtpFrom: string;
    /** `<data dir>/outbox`: mail written as .eml files when there is no SMTP server. */
    outboxFolder: string;
    /** FUNDI_WHATSAPP_*: the operator's WhatsApp Cloud API account, or null. */
    whatsapp: {
      phoneNumberId: string;
      accessToken: string;
      appSecret: string;
      verifyToken: string;
      baseUrl: string;
      apiVersion: string;
    } | null;
  };
  /** FUNDI_PUBLIC_URL, or http://localhost:PORT. */
  publicUrl: string;
}

/** The mail and WhatsApp channels from FUNDI_SMTP_* and FUNDI_WHATSAPP_*, and the base of links in messages. */
export function notificationConfig(env: NodeJS.ProcessEnv, dataDir: string, linkBase: string): NotificationConfig {
  const smtpUrl = env.FUNDI_SMTP_URL || null;
  if (smtpUrl && (!URL.canParse(smtpUrl) || !['smtp:', 'smtps:'].includes(new URL(smtpUrl).protocol)))
    throw new ConfigError('FUNDI_SMTP_URL', 'must be smtp://[user:pass@]host[:port] or smtps://...');
  const smtpFrom = env.FUNDI_SMTP_FROM || 'Fundi <no-reply@fundi.local>';
  if (!/^(?:[^<>]*<[^<>\s]+@[^<>\s]+>|[^<>\s]+@[^<>\s]+)$/.test(smtpFrom))
    throw new ConfigError('FUNDI_SMTP_FROM', 'must be an address or Name <address>');
  const phone = env.FUNDI_WHATSAPP_PHONE_NUMBER_ID;
  let whatsapp: NotificationConfig['channels']['whatsapp'] = null;
  if (phone) {
    const need = (name: string) => {
      const v = env[name];
      if (!v) throw new ConfigError(name, 'is required when FUNDI_WHATSAPP_PHONE_NUMBER_ID is set');
      return v;
    };
    const baseUrl = env.FUNDI_WHATSAPP_BASE_URL || 'https://graph.facebook.com';
    if (!URL.canParse(baseUrl)) throw new ConfigError('FUNDI_WHATSAPP_BASE_URL', 'must be an absolute URL');
    whatsapp = {
      phoneNumberId: phone,
      accessToken: need('FUNDI_WHATSAPP_ACCESS_TOKEN'),
      appSecret: need('FUNDI_WHATSAPP_APP_SECRET'),
      verifyToken: need('FUNDI_WHATSAPP_VERIFY_TOKEN'),
      baseUrl,
      apiVersion: env.FUNDI_WHATSAPP_API_VERSION || 'v21.0',
    };
  }
  return { channels: { smtpUrl, smtpFrom, outboxFolder: join(dataDir, 'outbox'), whatsapp }, publicUrl: linkBase };
}

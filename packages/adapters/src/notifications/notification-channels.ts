import type { Mailer, MessagingChannel } from '@fundi/domain/notifications';
import type { NotificationChannels, OpenSmtpSettings, OpenWhatsAppSettings } from '@fundi/application/notifications';
import { NodemailerMailer, type SmtpOptions } from './nodemailer-mailer.js';
import { OutboxFolderMailer, forgetOutboxMail } from './outbox-folder-mailer.js';
import { WhatsAppCloudChannel } from './whatsapp-cloud-channel.js';

/** The operator's defaults (FUNDI_SMTP_URL, FUNDI_SMTP_FROM, FUNDI_WHATSAPP_*; docs/api.md, "Notifications"). */
export interface ChannelDefaults {
  /** The operator's SMTP server; null: mail is written to `outboxFolder` instead. */
  smtpUrl: string | null;
  smtpFrom: string;
  outboxFolder: string;
  smtpOptions?: SmtpOptions;
  /** The operator's WhatsApp Cloud API account for tenants without their own; null: none. */
  whatsapp: (OpenWhatsAppSettings & { appSecret: string; verifyToken: string }) | null;
}

/**
 * The channels over nodemailer and the WhatsApp Cloud API, one pooled transport per distinct settings (a tenant's
 * own SMTP server, the default), kept while the process runs. `close()` ends every pool, and the outbox folder's
 * composer thread.
 */
export class NodeNotificationChannels implements NotificationChannels {
  private readonly mailers = new Map<string, NodemailerMailer>();
  private readonly channels = new Map<string, WhatsAppCloudChannel>();
  private readonly bySettings = new WeakMap<OpenWhatsAppSettings, WhatsAppCloudChannel>();
  private readonly fallback: Mailer;

  constructor(private readonly defaults: ChannelDefaults) {
    this.fallback = defaults.smtpUrl
      ? new NodemailerMailer({ url: defaults.smtpUrl }, defaults.smtpOptions)
      : new OutboxFolderMailer(defaults.outboxFolder);
  }

  get defaultWhatsApp(): { appSecret: string; verifyToken: string } | null {
    const w = this.defaults.whatsapp;
    return w ? { appSecret: w.appSecret, verifyToken: w.verifyToken } : null;
  }

  /** Where the default mail goes, for the start-up message. */
  describeDefault(): string {
    return this.defaults.smtpUrl
      ? `SMTP ${new URL(this.defaults.smtpUrl).host}`
      : `the outbox folder ${this.defaults.outboxFolder} (no FUNDI_SMTP_URL)`;
  }

  mailer(smtp: OpenSmtpSettings | null): { mailer: Mailer; from: string } {
    if (!smtp) return { mailer: this.fallback, from: this.defaults.smtpFrom };
    const key = JSON.stringify([smtp.host, smtp.port, smtp.secure, smtp.user, smtp.password]);
    let m = this.mailers.get(key);
    if (!m) {
      m = new NodemailerMailer(
        {
          host: smtp.host,
          port: smtp.port,
          secure: smtp.secure,
          ...(smtp.user ? { user: smtp.user, password: smtp.password ?? '' } : {}),
        },
        this.defaults.smtpOptions,
      );
      this.mailers.set(key, m);
    }
    return { mailer: m, from: smtp.from };
  }

  whatsapp(settings: OpenWhatsAppSettings | null): MessagingChannel | null {
    const s = settings ?? this.defaults.whatsapp;
    if (!s) return null;
    // A send job asks once per message with the same settings object (its tenant's, or none): the channel found for
    // that object is kept beside it, so the key below is built once per job, not per message.
    const known = this.bySettings.get(s);
    if (known) return known;
    const c = this.channelFor(s);
    this.bySettings.set(s, c);
    return c;
  }

  private channelFor(s: OpenWhatsAppSettings): WhatsAppCloudChannel {
    const key = JSON.stringify([s.baseUrl, s.apiVersion, s.phoneNumberId, s.accessToken]);
    let c = this.channels.get(key);
    if (!c) {
      c = new WhatsAppCloudChannel({
        baseUrl: s.baseUrl,
        apiVersion: s.apiVersion,
        phoneNumberId: s.phoneNumberId,
        accessToken: s.accessToken,
      });
      this.channels.set(key, c);
    }
    return c;
  }

  /** The outbox folder is swept whether or not it is the default today: mail written before an SMTP server was set stays there. */
  forgetMail(refs: readonly string[]): Promise<number> {
    return forgetOutboxMail(this.defaults.outboxFolder, refs);
  }

  close(): void {
    for (const m of this.mailers.values()) m.close();
    for (const c of this.channels.values()) void c.close();
    if (this.fallback instanceof NodemailerMailer) this.fallback.close();
    if (this.fallback instanceof OutboxFolderMailer) void this.fallback.close();
  }
}

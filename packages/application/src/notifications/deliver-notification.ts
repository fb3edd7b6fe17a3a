import { DomainError } from '@fundi/domain';
import {
  sendFailure,
  unsubscribeHeaders,
  type NotificationSnapshot,
  type StoredNotificationSettings,
} from '@fundi/domain/notifications';
import type { NotificationPorts, OpenSmtpSettings, OpenWhatsAppSettings } from './notification-ports.js';
import { UNSUBSCRIBE_PURPOSE } from './notification-drafts.js';
import type { Outcome } from './send-outcome.js';

/** The tenant's settings with secrets opened, for one send job. */
export interface OpenSettings {
  smtp: OpenSmtpSettings | null;
  whatsapp: OpenWhatsAppSettings | null;
}

/** The tenant's own SMTP server and WhatsApp account with their secrets opened; null where it has none. */
export function openSettings(d: Pick<NotificationPorts, 'box'>, s: StoredNotificationSettings | null): OpenSettings {
  const box = d.box;
  return {
    smtp: s?.smtp
      ? {
          host: s.smtp.host,
          port: s.smtp.port,
          secure: s.smtp.secure,
          user: s.smtp.user,
          password: s.smtp.passwordCiphertext ? box.open(s.smtp.passwordCiphertext) : null,
          from: s.smtp.from,
        }
      : null,
    whatsapp: s?.whatsapp
      ? {
          phoneNumberId: s.whatsapp.phoneNumberId,
          baseUrl: s.whatsapp.baseUrl,
          apiVersion: s.whatsapp.apiVersion,
          accessToken: box.open(s.whatsapp.accessTokenCiphertext),
        }
      : null,
  };
}

export async function deliver(
  d: Pick<NotificationPorts, 'channels' | 'settings' | 'signer'>,
  n: NotificationSnapshot,
  s: OpenSettings,
): Promise<Outcome> {
  const c = n.content!;
  try {
    if (c.kind === 'email') {
      const { mailer, from } = d.channels.mailer(s.smtp);
      const r = await mailer.send({
        from,
        to: n.to!,
        subject: c.subject,
        html: c.html,
        text: c.text,
        headers: { 'X-Fundi-Notification': n.id, ...unsubscribe(d, n) },
        refs: n.learnerId ? [n.id, n.learnerId] : [n.id],
      });
      return r.ok ? { ok: true, providerMessageId: r.messageId } : r;
    }
    const channel = d.channels.whatsapp(s.whatsapp);
    if (!channel)
      return { ok: false, failure: sendFailure('rejected', null, 'WhatsApp is not configured for this tenant') };
    const r = await channel.send({ to: n.to!, template: c.template, language: c.language, parameters: c.parameters });
    return r.ok ? { ok: true, providerMessageId: r.providerMessageId } : r;
  } catch (e) {
    if (e instanceof DomainError && e.kind === 'invalid')
      return {
        ok: false,
        failure: sendFailure(c.kind === 'email' ? 'hard_bounce' : 'invalid_recipient', null, e.message),
      };
    return { ok: false, failure: sendFailure('unavailable', null, e instanceof Error ? e.message : String(e)) };
  }
}

/** Learner mail carries a one-click unsubscribe link when the service has a public address. */
function unsubscribe(
  d: Pick<NotificationPorts, 'settings' | 'signer'>,
  n: NotificationSnapshot,
): Record<string, string> {
  const base = d.settings.publicUrl;
  if (n.recipientType !== 'learner' || !base) return {};
  const url = `${base}/api/v1/notifications/unsubscribe/${d.signer.sign(`${n.tenantId}:${n.recipientId}`, UNSUBSCRIBE_PURPOSE)}`;
  return url.startsWith('https:') ? unsubscribeHeaders(url) : { 'List-Unsubscribe': `<${url}>` };
}

import { DomainError } from '@fundi/domain';
import { mailboxAddress } from '@fundi/domain/notifications';
import type { Actor } from '../common/actor.js';
import type { NotificationPorts } from './notification-ports.js';
import { requireNotificationAdmin } from './template-overrides.js';

/** Sends a test email now through the tenant's SMTP server (or the default), answering what the server said. */
export class SendTestEmail {
  constructor(private readonly d: NotificationPorts) {}

  async execute(actor: Actor, to: unknown): Promise<{ sent: boolean; messageId: string | null; error: string | null }> {
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
}

import { DomainError } from '@fundi/domain';
import { verifyWhatsAppSignature, whatsAppStatuses } from '@fundi/domain/notifications';
import type { NotificationPorts } from './notification-ports.js';
import type { ReportNotificationStatus } from './report-notification-status.js';
import { phoneNumberIdOf } from './callback-reports.js';
import { NOT_JSON, SIGNATURE, badSignature, parseJson } from './callback-signatures.js';

/**
 * A WhatsApp status callback: the signature (`X-Hub-Signature-256`) is checked against the app secret of the
 * account the body names (by phone number id), or the operator's default account. Unknown or repeated message
 * ids change nothing. Answers how many statuses moved a notification.
 */
export class ReceiveWhatsAppStatuses {
  constructor(
    private readonly d: NotificationPorts,
    private readonly reportStatus: ReportNotificationStatus,
  ) {}

  async execute(raw: Buffer, signature: string | undefined): Promise<{ received: number; applied: number }> {
    if (!SIGNATURE.test(signature?.trim() ?? '')) throw badSignature('X-Hub-Signature-256');
    // The body is read for its phone number id only, to choose the secret; nothing else in it counts before the check.
    const body = parseJson(raw);
    const secrets: string[] = [];
    const phoneId = phoneNumberIdOf(body);
    const s = phoneId ? await this.d.repos.notificationSettings.findByPhoneNumberId(phoneId) : null;
    if (s?.whatsapp) secrets.push(this.d.box.open(s.whatsapp.appSecretCiphertext));
    if (this.d.channels.defaultWhatsApp) secrets.push(this.d.channels.defaultWhatsApp.appSecret);
    if (!secrets.some((x) => verifyWhatsAppSignature(raw, signature, x))) throw badSignature('X-Hub-Signature-256');
    if (body === NOT_JSON) throw DomainError.invalid('body', 'must be JSON');
    const reports = whatsAppStatuses(body);
    let applied = 0;
    for (const r of reports) {
      const n = await this.d.repos.notifications.findByProviderMessageId('whatsapp', r.providerMessageId);
      // A message of another tenant's account is not this callback's to change.
      if (!n || (s && n.tenantId !== s.tenantId)) continue;
      if (await this.reportStatus.execute(n, r.status, r.at, r.error)) applied++;
    }
    return { received: reports.length, applied };
  }
}

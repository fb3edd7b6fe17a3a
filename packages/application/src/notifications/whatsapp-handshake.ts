import { DomainError } from '@fundi/domain';
import type { NotificationPorts } from './notification-ports.js';
import { safeEqual } from './callback-reports.js';

/**
 * `GET` handshake of the WhatsApp callback: answers `hub.challenge` when `hub.verify_token` is the verify token of
 * a tenant's account (the one `phoneNumberId` names, or any) or of the operator's default account.
 */
export class AnswerWhatsAppHandshake {
  constructor(private readonly d: NotificationPorts) {}

  async execute(query: Record<string, unknown>, tenantSlug: string | null): Promise<string> {
    const mode = query['hub.mode'];
    const token = query['hub.verify_token'];
    const challenge = query['hub.challenge'];
    if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string' || !challenge)
      throw DomainError.invalid('hub.mode', 'must be a subscribe handshake with hub.verify_token and hub.challenge');
    const candidates: string[] = [];
    if (this.d.channels.defaultWhatsApp) candidates.push(this.d.channels.defaultWhatsApp.verifyToken);
    if (tenantSlug) {
      const t = await this.d.repos.tenants.findBySlug(tenantSlug);
      const s = t ? await this.d.repos.notificationSettings.get(t.id) : null;
      if (s?.whatsapp) candidates.push(s.whatsapp.verifyToken);
    }
    if (!candidates.some((c) => safeEqual(c, token)))
      throw DomainError.forbidden('hub.verify_token does not match', 'verify_token_mismatch');
    return challenge;
  }
}

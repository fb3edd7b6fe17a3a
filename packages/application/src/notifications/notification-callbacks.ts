import type { NotificationPorts } from './notification-ports.js';
import type { ReportNotificationStatus } from './report-notification-status.js';
import { AnswerWhatsAppHandshake } from './whatsapp-handshake.js';
import { ReceiveWhatsAppStatuses } from './whatsapp-status-callback.js';
import { ReceiveEmailReports } from './email-report-callback.js';
import { RecordNotificationOpen } from './record-notification-open.js';
import { UnsubscribeByLink } from './unsubscribe-by-link.js';

/**
 * What providers and readers report after a send (docs/api.md, "Notifications", "Callbacks"): the WhatsApp
 * handshake and status callbacks, signed email reports (JSON or RFC 3464), the open pixel and the one-click
 * unsubscribe. Statuses move through `ReportNotificationStatus`, only ever forward.
 */
export interface NotificationCallbacks {
  whatsAppHandshake: AnswerWhatsAppHandshake;
  whatsAppCallback: ReceiveWhatsAppStatuses;
  emailCallback: ReceiveEmailReports;
  opened: RecordNotificationOpen;
  unsubscribeByToken: UnsubscribeByLink;
}

export function notificationCallbacks(d: NotificationPorts, report: ReportNotificationStatus): NotificationCallbacks {
  return {
    whatsAppHandshake: new AnswerWhatsAppHandshake(d),
    whatsAppCallback: new ReceiveWhatsAppStatuses(d, report),
    emailCallback: new ReceiveEmailReports(d, report),
    opened: new RecordNotificationOpen(d, report),
    unsubscribeByToken: new UnsubscribeByLink(d),
  };
}

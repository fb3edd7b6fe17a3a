import type { NotificationPorts } from './notification-ports.js';
import type { ReportNotificationStatus } from './report-notification-status.js';
import { OPEN_PURPOSE } from './notification-drafts.js';

/** The open pixel: a valid signature marks the email opened; anything else is ignored (the GIF is served anyway). */
export class RecordNotificationOpen {
  constructor(
    private readonly d: NotificationPorts,
    private readonly reportStatus: ReportNotificationStatus,
  ) {}

  async execute(token: string): Promise<void> {
    const payload = this.d.signer.verify(token.replace(/\.gif$/, ''), OPEN_PURPOSE);
    if (!payload) return;
    const [tenantId, id] = payload.split(':');
    const n = tenantId && id ? await this.d.repos.notifications.findById(tenantId, id) : null;
    if (n?.channel === 'email' && n.status !== 'queued')
      await this.reportStatus.execute(n, 'opened', this.d.clock.now().toISOString(), null);
  }
}

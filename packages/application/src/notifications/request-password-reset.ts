import { requestPasswordReset } from './account-messages.js';
import type { CreateNotifications } from './create-notifications.js';
import type { NotificationPorts } from './notification-ports.js';
import type { TriggerContext } from './trigger-drafts.js';

/** A password reset asked for on the sign-in page (see `requestPasswordReset` in account-messages.ts). */
export class RequestPasswordReset {
  private readonly c: TriggerContext;

  constructor(d: NotificationPorts, create: CreateNotifications) {
    this.c = { d, create };
  }

  execute(tenantSlug: string, email: string): Promise<void> {
    return requestPasswordReset(this.c, tenantSlug, email);
  }
}

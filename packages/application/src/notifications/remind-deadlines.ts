import { remindDeadlines } from './deadline-reminders.js';
import type { CreateNotifications } from './create-notifications.js';
import type { NotificationPorts } from './notification-ports.js';
import type { TriggerContext } from './trigger-drafts.js';

/** The deadline reminders of today; the number sent (see deadline-reminders.ts). */
export class RemindDeadlines {
  private readonly c: TriggerContext;

  constructor(d: NotificationPorts, create: CreateNotifications) {
    this.c = { d, create };
  }

  execute(): Promise<number> {
    return remindDeadlines(this.c);
  }
}

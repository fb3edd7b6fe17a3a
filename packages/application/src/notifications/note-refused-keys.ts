import { noteRefusedKeys } from './security-messages.js';
import type { CreateNotifications } from './create-notifications.js';
import type { NotificationPorts } from './notification-ports.js';
import type { TriggerContext } from './trigger-drafts.js';

/** Many refused API keys from one address: the tenant told, or null (see account-messages.ts). */
export class NoteRefusedKeys {
  private readonly c: TriggerContext;

  constructor(d: NotificationPorts, create: CreateNotifications) {
    this.c = { d, create };
  }

  execute(r: { ip: string; presented: string; path: string; count: number }): Promise<string | null> {
    return noteRefusedKeys(this.c, r);
  }
}

import type { LearnerSnapshot } from '@fundi/domain/learners';
import { sendPortalSignIn } from './account-messages.js';
import type { CreateNotifications } from './create-notifications.js';
import type { NotificationPorts } from './notification-ports.js';
import type { TriggerContext } from './trigger-drafts.js';

/** A learner portal sign-in link or code (see `sendPortalSignIn` in account-messages.ts). */
export class SendPortalSignIn {
  private readonly c: TriggerContext;

  constructor(d: NotificationPorts, create: CreateNotifications) {
    this.c = { d, create };
  }

  execute(
    learner: LearnerSnapshot,
    sent: { channel: 'email'; token: string } | { channel: 'whatsapp'; code: string },
  ): Promise<void> {
    return sendPortalSignIn(this.c, learner, sent);
  }
}

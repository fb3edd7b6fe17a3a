import type { CreateNotifications } from './create-notifications.js';
import type { NotificationPorts } from './notification-ports.js';
import { NoteRefusedKeys } from './note-refused-keys.js';
import { RemindDeadlines } from './remind-deadlines.js';
import { RequestPasswordReset } from './request-password-reset.js';
import { RunTriggers } from './run-triggers.js';
import { SendPortalSignIn } from './send-portal-sign-in.js';
import { catalogueOf } from './trigger-catalogue.js';
import { triggerReaction } from './trigger-sources.js';

export { DEADLINE_REMINDERS, REMINDER_DAYS } from './deadline-reminders.js';
export { RUN_TRIGGERS, WEBHOOK_DISABLED_EVENT, triggerReaction, type TriggerPayload } from './trigger-sources.js';

/**
 * The notifications that events and requests trigger, one use case each: the trigger job's events, the deadline
 * reminders, a password reset, a portal sign-in, refused API keys. The messages themselves are made by audience:
 * learner-messages.ts (learners), staff-messages.ts (assessors, moderators, administrators), account-messages.ts
 * (invitations, password resets, security alerts) and deadline-reminders.ts; trigger-sources.ts has the events
 * triggers react to. `reaction` is the outbox reaction that queues the trigger jobs of every capability's triggers.
 */
export function notificationTriggers(d: NotificationPorts, create: CreateNotifications) {
  return {
    run: new RunTriggers(d, create),
    remindDeadlines: new RemindDeadlines(d, create),
    requestPasswordReset: new RequestPasswordReset(d, create),
    sendPortalSignIn: new SendPortalSignIn(d, create),
    noteRefusedKeys: new NoteRefusedKeys(d, create),
    reaction: triggerReaction(catalogueOf(d)),
  };
}

export type NotificationTriggers = ReturnType<typeof notificationTriggers>;

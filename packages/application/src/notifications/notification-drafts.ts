import type { NotificationChannel, NotificationState } from '@fundi/domain/notifications';
import { jobType } from '../jobs/job-definition.js';
import type { TemplateKey } from './built-in-templates.js';
import type { Recipient } from './recipients.js';
import type { TemplateValues } from './template-variables.js';

/** Sends queued notifications: `ids` of one tenant, sent together (a bulk send or one trigger's fan-out). */
export const SEND_NOTIFICATIONS = jobType<{ tenantId: string; ids: string[] }>('notifications.send', 'short', {
  maxAttempts: 5,
  priority: 'background',
});

/** Notifications per send job: a bulk send of 1,000 becomes 10 jobs that run side by side. */
export const SEND_BATCH = 100;
/** Recipients of one bulk request. */
export const MAX_BULK_RECIPIENTS = 1000;

export const OPEN_PURPOSE = 'notification-open';
export const UNSUBSCRIBE_PURPOSE = 'notification-unsubscribe';

export interface SendRequest {
  recipientId?: string;
  learnerId?: string;
  channel: NotificationChannel;
  template: string;
  variables?: Record<string, unknown>;
}

export interface BulkSendRequest {
  recipientIds: string[];
  channel: NotificationChannel;
  template: string;
  variables?: Record<string, unknown>;
}

/** One notification to make: who, how, which template with which values, and whether a trigger sends it. */
export interface Draft {
  recipient: Recipient;
  channel: NotificationChannel;
  template: TemplateKey;
  values: TemplateValues;
  trigger: string | null;
  dedupeKey: string | null;
  createdBy: string;
  /** The learner a message to staff is about (see `NotificationSnapshot.learnerId`); a learner recipient is implied. */
  about?: string;
}

export const hist = (status: NotificationState, at: string, detail: string | null = null) => ({ status, at, detail });

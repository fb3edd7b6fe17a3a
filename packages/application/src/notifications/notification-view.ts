import type { NotificationHistoryEntry, NotificationSnapshot, NotificationState } from '@fundi/domain/notifications';

/** A notification as the API shows it: who, how, which template, and where it stands (docs/api.md, "Notifications"). */
export interface NotificationView {
  id: string;
  recipientType: 'learner' | 'user';
  recipientId: string;
  channel: 'email' | 'whatsapp';
  template: string;
  /** The address or number it went to; null when skipped for want of one, or after the learner's erasure. */
  to: string | null;
  status: NotificationState;
  history: NotificationHistoryEntry[];
  attempts: number;
  /** The trigger that sent it, or null when sent through the API. */
  trigger: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export const notificationView = (n: NotificationSnapshot): NotificationView => ({
  id: n.id,
  recipientType: n.recipientType,
  recipientId: n.recipientId,
  channel: n.channel,
  template: n.template,
  to: n.to,
  status: n.status,
  history: n.history,
  attempts: n.attempts,
  trigger: n.trigger,
  createdBy: n.createdBy,
  createdAt: n.createdAt,
  updatedAt: n.updatedAt,
});

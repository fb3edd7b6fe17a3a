import { notificationSettingsAdmin, type NotificationSettingsAdmin } from './notification-settings-admin.js';
import { notificationTemplatesAdmin, type NotificationTemplatesAdmin } from './notification-templates-admin.js';
import type { NotificationPorts } from './notification-ports.js';
import { notificationCallbacks, type NotificationCallbacks } from './notification-callbacks.js';
import { SendQueuedNotifications } from './send-queued-notifications.js';
import { ReportNotificationStatus } from './report-notification-status.js';
import { CreateNotifications } from './create-notifications.js';
import { SendNotification } from './send-notification.js';
import { SendBulkNotifications } from './send-bulk-notifications.js';
import { GetNotification } from './get-notification.js';
import { ListNotifications } from './list-notifications.js';
import { notificationTriggers, type NotificationTriggers } from './triggers.js';
import { ForgetLearnerMail } from './erased-learner-mail.js';
import { LearnerTemplateValues } from './learner-template-values.js';

/** Making and reading notifications (docs/api.md, "Notifications"): one use case each. */
export interface NotificationSends {
  send: SendNotification;
  sendBulk: SendBulkNotifications;
  get: GetNotification;
  list: ListNotifications;
  /** Renders and queues drafts: the API sends and every trigger go through it. */
  create: CreateNotifications;
  /** The values a learner's own record gives a template (the dashboard's bulk send). */
  learnerValues: LearnerTemplateValues;
}

export interface NotificationUseCases {
  notifications: NotificationSends;
  /** After a notification is made: the worker's send job, and the statuses providers report later. */
  notificationDelivery: { send: SendQueuedNotifications; report: ReportNotificationStatus };
  notificationCallbacks: NotificationCallbacks;
  notificationTemplates: NotificationTemplatesAdmin;
  notificationSettings: NotificationSettingsAdmin;
  notificationTriggers: NotificationTriggers;
  forgetLearnerMail: ForgetLearnerMail;
}

/** The notifications capability's use cases over its ports (docs/architecture.md, "Capabilities"). */
export function notificationUseCases(p: NotificationPorts): NotificationUseCases {
  const create = new CreateNotifications(p);
  const notifications: NotificationSends = {
    send: new SendNotification(p, create),
    sendBulk: new SendBulkNotifications(p, create),
    get: new GetNotification(p),
    list: new ListNotifications(p),
    create,
    learnerValues: new LearnerTemplateValues(p),
  };
  const notificationDelivery = {
    send: new SendQueuedNotifications(p, create),
    report: new ReportNotificationStatus(p, create),
  };
  return {
    notifications,
    notificationDelivery,
    notificationCallbacks: notificationCallbacks(p, notificationDelivery.report),
    notificationTemplates: notificationTemplatesAdmin(p),
    notificationSettings: notificationSettingsAdmin(p),
    notificationTriggers: notificationTriggers(p, create),
    forgetLearnerMail: new ForgetLearnerMail(p),
  };
}

import { NotificationSettingsAdmin } from './notification-settings-admin.js';
import { NotificationTemplatesAdmin } from './notification-templates-admin.js';
import type { NotificationPorts } from './notification-ports.js';
import { NotificationCallbacks } from './notification-callbacks.js';
import { NotificationDelivery } from './notification-delivery.js';
import { NotificationService } from './notification-service.js';
import { NotificationTriggers } from './triggers.js';
import { ForgetLearnerMail } from './erased-learner-mail.js';

export interface NotificationUseCases {
  notifications: NotificationService;
  notificationDelivery: NotificationDelivery;
  notificationCallbacks: NotificationCallbacks;
  notificationTemplates: NotificationTemplatesAdmin;
  notificationSettings: NotificationSettingsAdmin;
  notificationTriggers: NotificationTriggers;
  forgetLearnerMail: ForgetLearnerMail;
}

/** The notifications capability's use cases over its ports (docs/architecture.md, "Capabilities"). */
export function notificationUseCases(p: NotificationPorts): NotificationUseCases {
  const notifications = new NotificationService(p);
  const notificationDelivery = new NotificationDelivery(p, notifications);
  return {
    notifications,
    notificationDelivery,
    notificationCallbacks: new NotificationCallbacks(p, notificationDelivery),
    notificationTemplates: new NotificationTemplatesAdmin(p),
    notificationSettings: new NotificationSettingsAdmin(p),
    notificationTriggers: new NotificationTriggers(p, notifications),
    forgetLearnerMail: new ForgetLearnerMail(p),
  };
}

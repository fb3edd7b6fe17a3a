import type { NotificationPorts } from './notification-ports.js';
import { GetNotificationTemplate } from './get-notification-template.js';
import { ListNotificationTemplates } from './list-notification-templates.js';
import { PreviewNotificationTemplate } from './preview-notification-template.js';
import { PutNotificationTemplate } from './put-notification-template.js';
import { ResetNotificationTemplate } from './reset-notification-template.js';

export {
  requireNotificationAdmin,
  variablesFor,
  type TemplateDetail,
  type TemplateSummary,
} from './template-overrides.js';

/** Email template overrides, with a preview (docs/api.md, "Notifications", "Templates and settings"). */
export interface NotificationTemplatesAdmin {
  listTemplates: ListNotificationTemplates;
  getTemplate: GetNotificationTemplate;
  putTemplate: PutNotificationTemplate;
  resetTemplate: ResetNotificationTemplate;
  preview: PreviewNotificationTemplate;
}

export function notificationTemplatesAdmin(d: NotificationPorts): NotificationTemplatesAdmin {
  const getTemplate = new GetNotificationTemplate(d);
  return {
    listTemplates: new ListNotificationTemplates(d),
    getTemplate,
    putTemplate: new PutNotificationTemplate(d, getTemplate),
    resetTemplate: new ResetNotificationTemplate(d),
    preview: new PreviewNotificationTemplate(d, getTemplate),
  };
}

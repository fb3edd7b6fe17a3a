import type { NotificationUseCases } from '@fundi/application/notifications';
import { pageInOrder } from '@fundi/domain';
import { route } from '../routes/route.js';
import {
  CallbackSecretOut,
  SettingsIn,
  SettingsOut,
  TestEmailIn,
  TestEmailOut,
} from './notification-settings-schemas.js';
import {
  PreviewIn,
  PreviewOut,
  TemplateIn,
  TemplateKeyParams,
  TemplateOut,
  TemplateSummaryOut,
} from './notification-template-schemas.js';

const tag = 'Notifications';

/** The tenant's templates and settings (docs/api.md, "Notifications"), in their order of registration. */
export function notificationAdminRoutes(u: NotificationUseCases) {
  const templates = u.notificationTemplates;
  const settings = u.notificationSettings;
  return [
    route({
      operationId: 'listNotificationTemplates',
      summary: 'Every template, with its channels and whether the tenant overrides it',
      tag,
      method: 'get',
      path: '/notification-templates',
      scope: 'notifications:read',
      // Templates have no id: Form A's cursor carries the key (they stay in their order of registration).
      list: { item: TemplateSummaryOut, cursorKey: 'key' },
      success: { status: 200, description: 'A page of templates' },
      handle: async ({ actor, page }) =>
        pageInOrder((await templates.listTemplates.execute(actor)).data, page, (t) => t.key),
    }),
    route({
      operationId: 'getNotificationTemplate',
      summary: 'A template as the tenant sends it (its override, or the default)',
      tag,
      method: 'get',
      path: '/notification-templates/{key}',
      scope: 'notifications:read',
      params: TemplateKeyParams,
      success: { status: 200, schema: TemplateOut, description: 'The template' },
      handle: ({ actor, params }) => templates.getTemplate.execute(actor, params.key),
    }),
    route({
      operationId: 'putNotificationTemplate',
      summary: "Set the tenant's own email version of a template (admins)",
      description: 'Every part must compile and name only the variables the template lists.',
      tag,
      method: 'put',
      path: '/notification-templates/{key}',
      scope: 'notifications:write',
      params: TemplateKeyParams,
      body: TemplateIn,
      success: { status: 200, schema: TemplateOut, description: 'The template as stored' },
      handle: ({ actor, params, body }) => templates.putTemplate.execute(actor, params.key, body),
    }),
    route({
      operationId: 'resetNotificationTemplate',
      summary: 'Back to the default version (admins)',
      tag,
      method: 'delete',
      path: '/notification-templates/{key}',
      scope: 'notifications:delete',
      params: TemplateKeyParams,
      success: { status: 204, description: 'The default applies' },
      handle: ({ actor, params }) => templates.resetTemplate.execute(actor, params.key),
    }),
    route({
      operationId: 'previewNotificationTemplate',
      summary: 'Render a template (or a draft of it) with sample values',
      tag,
      method: 'post',
      path: '/notification-templates/{key}/preview',
      scope: 'notifications:read',
      params: TemplateKeyParams,
      body: PreviewIn,
      success: { status: 200, schema: PreviewOut, description: 'The rendered email' },
      handle: ({ actor, params, body }) => templates.preview.execute(actor, params.key, body),
    }),
    route({
      operationId: 'getNotificationSettings',
      summary: 'Trigger switches, SMTP and WhatsApp settings (secrets never shown)',
      tag,
      method: 'get',
      path: '/notification-settings',
      scope: 'notifications:read',
      success: { status: 200, schema: SettingsOut, description: 'The settings' },
      handle: ({ actor }) => settings.getSettings.execute(actor),
    }),
    route({
      operationId: 'putNotificationSettings',
      summary: 'Change trigger switches, SMTP or WhatsApp settings (admins)',
      tag,
      method: 'put',
      path: '/notification-settings',
      scope: 'notifications:write',
      body: SettingsIn,
      success: { status: 200, schema: SettingsOut, description: 'The settings as stored' },
      handle: ({ actor, body }) => settings.putSettings.execute(actor, body as Record<string, unknown>),
    }),
    route({
      operationId: 'sendTestEmail',
      summary: "Send a test email through the tenant's mail settings now (admins)",
      tag,
      method: 'post',
      path: '/notification-settings/smtp/test',
      scope: 'notifications:write',
      body: TestEmailIn,
      success: { status: 200, schema: TestEmailOut, description: 'What the mail server said' },
      handle: ({ actor, body }) => settings.sendTestEmail.execute(actor, body.to),
    }),
    route({
      operationId: 'rotateNotificationCallbackSecret',
      summary: 'A new secret for signed email callbacks, shown once (admins)',
      tag,
      method: 'post',
      path: '/notification-settings/callback-secret',
      scope: 'notifications:write',
      success: { status: 200, schema: CallbackSecretOut, description: 'The secret' },
      handle: ({ actor }) => settings.rotateCallbackSecret.execute(actor),
    }),
  ];
}

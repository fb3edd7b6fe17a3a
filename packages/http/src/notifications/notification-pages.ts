import type { SessionContext } from '@fundi/application/staff';
import { isDomainError } from '@fundi/domain';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { field, requireAdmin } from '../dashboard/web.js';
import { describe } from '../tenants/api-key-pages.js';
import { type Notice, notificationsPage } from './notification-overview.js';
import { notificationTemplatePages } from './notification-template-pages.js';

/**
 * Notifications (docs/dashboard.md, "Pages"): trigger switches, the tenant's SMTP server (with a test
 * mail) and WhatsApp account, the email templates with a preview, and the recent notifications. Everyone who may
 * read notifications sees them; only administrators change anything, as in the API.
 */
export function notificationPages(r: PageRoutes, d: DashboardDeps): void {
  const n = d.notifications;

  const guarded = async (s: SessionContext, work: () => Promise<Notice>) => {
    requireAdmin(s);
    try {
      return notificationsPage(d, s, await work());
    } catch (e) {
      if (isDomainError(e) && e.kind === 'invalid') return notificationsPage(d, s, { text: describe(e), error: true });
      throw e;
    }
  };

  r.get('/dashboard/notifications', async (_ctx, s) => notificationsPage(d, s));

  r.post('/dashboard/notifications/triggers', async (_ctx, s, form) =>
    guarded(s, async () => {
      const on = new Set(form.getAll('on'));
      const current = await n.notificationSettings.getSettings.execute(s.actor);
      const triggers = Object.fromEntries(Object.keys(current.triggers).map((k) => [k, on.has(k)]));
      await n.notificationSettings.putSettings.execute(s.actor, { triggers });
      return { text: 'Triggers saved.' };
    }),
  );

  r.post('/dashboard/notifications/smtp', async (_ctx, s, form) =>
    guarded(s, async () => {
      if (form.get('action') === 'default') {
        await n.notificationSettings.putSettings.execute(s.actor, { smtp: null });
        return { text: "Mail goes through the service's default server again." };
      }
      const password = form.get('password');
      await n.notificationSettings.putSettings.execute(s.actor, {
        smtp: {
          host: field(form, 'host'),
          port: Number(form.get('port')),
          secure: form.get('secure') === '1',
          user: field(form, 'user') ?? null,
          ...(password ? { password } : {}),
          from: field(form, 'from'),
        },
      });
      return { text: 'Email server saved.' };
    }),
  );

  r.post('/dashboard/notifications/smtp-test', async (_ctx, s, form) =>
    guarded(s, async () => {
      const r = await n.notificationSettings.sendTestEmail.execute(s.actor, field(form, 'to'));
      return r.sent
        ? { text: `The test email was accepted by the server (${r.messageId}).` }
        : { text: `The test email was not sent: ${r.error}`, error: true };
    }),
  );

  r.post('/dashboard/notifications/whatsapp', async (_ctx, s, form) =>
    guarded(s, async () => {
      if (form.get('action') === 'remove') {
        await n.notificationSettings.putSettings.execute(s.actor, { whatsapp: null });
        return { text: 'The WhatsApp account was removed.' };
      }
      const token = form.get('accessToken');
      const secret = form.get('appSecret');
      await n.notificationSettings.putSettings.execute(s.actor, {
        whatsapp: {
          phoneNumberId: field(form, 'phoneNumberId'),
          baseUrl: field(form, 'baseUrl'),
          ...(token ? { accessToken: token } : {}),
          ...(secret ? { appSecret: secret } : {}),
        },
      });
      return { text: 'WhatsApp account saved.' };
    }),
  );

  notificationTemplatePages(r, d);
}

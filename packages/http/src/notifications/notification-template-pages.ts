import type { SessionContext } from '@fundi/application/staff';
import type { RenderedEmail } from '@fundi/application/notifications';
import { isDomainError } from '@fundi/domain';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { html, when, type Html } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { requireAdmin, requireScope } from '../dashboard/web.js';
import { describe } from '../tenants/api-key-pages.js';
import type { Notice } from './notification-overview.js';

/** An email template's page: its variables, the form to edit it, a preview, and saving or resetting (admins). */
export function notificationTemplatePages(r: PageRoutes, d: DashboardDeps): void {
  const n = d.notifications;

  const templatePage = async (
    s: SessionContext,
    key: string,
    o: { draft?: { subject: string; html: string; text: string }; preview?: RenderedEmail; notice?: Notice } = {},
  ) => {
    requireScope(s, 'notifications:read');
    const t = await n.notificationTemplates.getTemplate.execute(s.actor, key);
    const admin = s.user.role === 'admin';
    const v = o.draft ?? t.email ?? { subject: '', html: '', text: '' };
    const preview: Html = o.preview
      ? html`<h2>Preview</h2><div class="card"><p><strong>Subject:</strong> ${o.preview.subject}</p>
<h3>Text part</h3><pre>${o.preview.text}</pre><h3>HTML part (as sent, escaped here)</h3><pre>${o.preview.html}</pre></div>`
      : html``;
    return page({
      title: `Template ${key}`,
      current: '/dashboard/notifications',
      session: s,
      notice: o.notice,
      body: html`<p><a href="/dashboard/notifications">Back to notifications</a></p>
<p>Sent when ${t.description}. Version: ${t.source === 'override' ? 'your own' : 'the default'}.</p>
<p>Variables you may use: ${t.variables.map((x) => html`<code>{{${x}}}</code> `)}</p>
<form class="card" method="post" action="/dashboard/notifications/templates/${key}">${csrf(s)}
<label for="tpl-subject">Subject</label><input id="tpl-subject" name="subject" value="${v.subject}" maxlength="1000" required>
<label for="tpl-html">HTML</label><textarea id="tpl-html" name="html" rows="10">${v.html}</textarea>
<label for="tpl-text">Text</label><textarea id="tpl-text" name="text" rows="8" required>${v.text}</textarea>
<button type="submit" name="action" value="preview">Preview</button>${when(
        admin,
        () =>
          html` <button type="submit" name="action" value="save">Save</button>${when(
            t.source === 'override',
            () => html` <button type="submit" name="action" value="reset">Reset to the default</button>`,
          )}`,
      )}
</form>${preview}`,
    });
  };

  r.get('/dashboard/notifications/templates/:key', async (ctx, s) => templatePage(s, ctx.params.key!));

  r.post('/dashboard/notifications/templates/:key', async (ctx, s, form) => {
    const key = ctx.params.key!;
    const draft = { subject: form.get('subject') ?? '', html: form.get('html') ?? '', text: form.get('text') ?? '' };
    const action = form.get('action');
    try {
      if (action === 'save') {
        requireAdmin(s);
        await n.notificationTemplates.putTemplate.execute(s.actor, key, draft);
        return templatePage(s, key, { notice: { text: 'Template saved.' } });
      }
      if (action === 'reset') {
        requireAdmin(s);
        await n.notificationTemplates.resetTemplate.execute(s.actor, key);
        return templatePage(s, key, { notice: { text: 'The default version applies again.' } });
      }
      return templatePage(s, key, {
        draft,
        preview: await n.notificationTemplates.preview.execute(s.actor, key, draft),
      });
    } catch (e) {
      if (isDomainError(e) && e.kind === 'invalid')
        return templatePage(s, key, { draft, notice: { text: describe(e), error: true } });
      throw e;
    }
  });
}

import type { RenderedEmail, SessionContext } from '@fundi/application';
import { isDomainError } from '@fundi/domain';
import type { DashboardDeps, PageRoutes } from '../dashboard-deps.js';
import { html, when, type Html } from '../html.js';
import { csrf, page } from '../layout.js';
import { field, requireAdmin, requireScope } from '../web.js';
import { describe } from './api-keys.js';

type Notice = { text: string; error?: boolean };

/**
 * Notifications (docs/dashboard.md, "Pages"): trigger switches, the tenant's SMTP server (with a test
 * mail) and WhatsApp account, the email templates with a preview, and the recent notifications. Everyone who may
 * read notifications sees them; only administrators change anything, as in the API.
 */
export function notificationPages(r: PageRoutes, d: DashboardDeps): void {
  const n = d.notifications;

  const render = async (s: SessionContext, notice?: Notice) => {
    requireScope(s, 'notifications:read');
    const admin = s.user.role === 'admin';
    const settings = await n.notificationSettings.getSettings.execute(s.actor);
    const templates = (await n.notificationTemplates.listTemplates.execute(s.actor)).data;
    const recent = await n.notifications.list.execute(s.actor, {}, { kind: 'offset', offset: 0, limit: 1 });
    const last = await n.notifications.list.execute(
      s.actor,
      {},
      { kind: 'offset', offset: Math.max(0, recent.total - 50), limit: 50 },
    );
    const smtp = settings.smtp;
    const wa = settings.whatsapp;
    const triggers = Object.entries(settings.triggers);
    return page({
      title: 'Notifications',
      current: '/dashboard/notifications',
      session: s,
      notice,
      body: html`<h2>Triggers</h2>
${
  admin
    ? html`<form class="card" method="post" action="/dashboard/notifications/triggers">${csrf(s)}
<fieldset><legend>Send these notifications</legend>
${triggers.map(
  ([k, on]) =>
    html`<div class="check"><input type="checkbox" id="t-${k}" name="on" value="${k}"${on ? ' checked' : ''}> <label for="t-${k}">${k.replace(/_/g, ' ')}</label></div>`,
)}
</fieldset><button type="submit">Save triggers</button></form>`
    : html`<ul>${triggers.map(([k, on]) => html`<li>${k.replace(/_/g, ' ')}: ${on ? 'on' : 'off'}</li>`)}</ul>`
}
<h2>Email server</h2>
<p>${smtp ? html`Mail goes through ${smtp.host}:${smtp.port} as ${smtp.from}.` : "Mail goes through the service's default mail server."}</p>
${when(
  admin,
  () => html`<form class="card" method="post" action="/dashboard/notifications/smtp">${csrf(s)}
<label for="smtp-host">Host</label><input id="smtp-host" name="host" value="${smtp?.host ?? ''}" maxlength="253">
<label for="smtp-port">Port</label><input id="smtp-port" name="port" type="number" min="1" max="65535" value="${String(smtp?.port ?? 587)}">
<div class="check"><input type="checkbox" id="smtp-secure" name="secure" value="1"${smtp?.secure ? ' checked' : ''}> <label for="smtp-secure">TLS from the start (port 465)</label></div>
<label for="smtp-user">User</label><input id="smtp-user" name="user" value="${smtp?.user ?? ''}" maxlength="255" autocomplete="off">
<label for="smtp-password">Password ${smtp?.passwordSet ? '(stored; leave empty to keep it)' : ''}</label><input id="smtp-password" name="password" type="password" autocomplete="new-password">
<label for="smtp-from">From</label><input id="smtp-from" name="from" value="${smtp?.from ?? ''}" maxlength="320" placeholder="Academy &lt;training@example.org&gt;">
<button type="submit" name="action" value="save">Save email server</button> <button type="submit" name="action" value="default">Use the default server</button></form>
<form class="card" method="post" action="/dashboard/notifications/smtp-test">${csrf(s)}
<label for="test-to">Send a test email to</label><input id="test-to" name="to" type="email" required>
<button type="submit">Send test email</button></form>`,
)}
<h2>WhatsApp</h2>
<p>${wa ? html`Messages go from phone number id ${wa.phoneNumberId} through ${wa.baseUrl}. Callback verify token: <code>${wa.verifyToken}</code>.` : 'No WhatsApp account is set up for this organisation.'}</p>
${when(
  admin,
  () => html`<form class="card" method="post" action="/dashboard/notifications/whatsapp">${csrf(s)}
<label for="wa-phone">Phone number id</label><input id="wa-phone" name="phoneNumberId" value="${wa?.phoneNumberId ?? ''}" inputmode="numeric" maxlength="20">
<label for="wa-token">Access token ${wa ? '(stored; leave empty to keep it)' : ''}</label><input id="wa-token" name="accessToken" type="password" autocomplete="off">
<label for="wa-secret">App secret ${wa ? '(stored; leave empty to keep it)' : ''}</label><input id="wa-secret" name="appSecret" type="password" autocomplete="off">
<label for="wa-base">API address</label><input id="wa-base" name="baseUrl" value="${wa?.baseUrl ?? 'https://graph.facebook.com'}" maxlength="2048">
<button type="submit" name="action" value="save">Save WhatsApp account</button>${when(wa, () => html` <button type="submit" name="action" value="remove">Remove it</button>`)}</form>`,
)}
<h2>Email templates</h2>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Template</th><th scope="col">For</th><th scope="col">Sent when</th><th scope="col">Channels</th><th scope="col">Version</th></tr></thead><tbody>
${templates.map(
  (t) =>
    html`<tr><td>${t.channels.includes('email') ? html`<a href="/dashboard/notifications/templates/${t.key}">${t.key}</a>` : t.key}</td><td>${t.audience}</td><td>${t.description}</td><td>${t.channels.join(', ')}</td><td>${t.overridden ? 'your own' : 'default'}</td></tr>`,
)}
</tbody></table></div>
<h2>Recent notifications</h2>
${
  last.items.length
    ? html`<div class="table" tabindex="0"><table><thead><tr><th scope="col">When</th><th scope="col">Template</th><th scope="col">Channel</th><th scope="col">To</th><th scope="col">Status</th><th scope="col">Last detail</th></tr></thead><tbody>
${[...last.items]
  .reverse()
  .map(
    (x) =>
      html`<tr><td>${x.createdAt.slice(0, 16).replace('T', ' ')}</td><td>${x.template}</td><td>${x.channel}</td><td>${x.to ?? '-'}</td><td>${x.status}</td><td>${x.history.at(-1)?.detail ?? ''}</td></tr>`,
  )}
</tbody></table></div>`
    : html`<p>No notifications yet.</p>`
}`,
    });
  };

  const guarded = async (s: SessionContext, work: () => Promise<Notice>) => {
    requireAdmin(s);
    try {
      return render(s, await work());
    } catch (e) {
      if (isDomainError(e) && e.kind === 'invalid') return render(s, { text: describe(e), error: true });
      throw e;
    }
  };

  r.get('/dashboard/notifications', async (_ctx, s) => render(s));

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

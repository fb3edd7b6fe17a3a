import type { SessionContext } from '@fundi/application/staff';
import type { DashboardDeps } from '../dashboard/dashboard-deps.js';
import { html, when } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { requireScope } from '../dashboard/web.js';

/** A line above a page: what a form did, or why it was refused. */
export type Notice = { text: string; error?: boolean };

/**
 * The notifications page: trigger switches, the SMTP server and WhatsApp account (forms for administrators), the
 * email templates, and the last 50 notifications.
 */
export async function notificationsPage(d: DashboardDeps, s: SessionContext, notice?: Notice) {
  const n = d.notifications;
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
}

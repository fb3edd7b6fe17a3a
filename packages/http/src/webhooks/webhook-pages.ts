import type { SessionContext } from '@fundi/application/staff';
import { isDomainError } from '@fundi/domain';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { dateTime, html, when } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { can, field, requireScope, zoneOf } from '../dashboard/web.js';
import { describe } from '../tenants/api-key-pages.js';

const FIRST = (limit: number) => ({ kind: 'offset', offset: 0, limit }) as const;

/** Webhook subscriptions: list and create; one subscription's delivery log with send-test, replay, re-enable. */
export function webhookPages(r: PageRoutes, d: DashboardDeps): void {
  const list = async (s: SessionContext, notice?: { text: string; error?: boolean }, secret?: string) => {
    const subs = await d.webhooks.list.execute(s.actor, FIRST(100));
    const write = can(s, 'webhooks:write');
    return page({
      title: 'Webhooks',
      current: '/dashboard/webhooks',
      session: s,
      notice,
      body: html`${when(
        secret,
        () => html`<div class="card" role="status"><p>The signing secret, shown only this once:</p>
<label for="new-secret">Signing secret</label><input id="new-secret" class="secret" readonly value="${secret}">
<button type="button" data-copy="new-secret">Copy</button></div>`,
      )}
${when(
  write,
  () => html`<form class="card" method="post" action="/dashboard/webhooks">${csrf(s)}<h2>Add a subscription</h2>
<label for="wh-url">Receiver URL (https)</label><input id="wh-url" name="url" type="url" required>
<fieldset><legend>Events</legend>${d.webhooks.eventTypes.map(
    (t, i) =>
      html`<div class="check"><input type="checkbox" id="ev-${i}" name="events" value="${t}"> <label for="ev-${i}">${t}</label></div>`,
  )}</fieldset>
<button type="submit">Add subscription</button></form>`,
)}
<div class="table" tabindex="0"><table><thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Created</th></tr></thead><tbody>
${subs.items.map(
  (w) => html`<tr><td><a href="/dashboard/webhooks/${w.id}">${w.url}</a></td><td>${w.events.join(', ')}</td>
<td>${w.enabled ? 'enabled' : `disabled${w.disabledReason ? `: ${w.disabledReason}` : ''}`}</td><td>${dateTime(w.createdAt, zoneOf(s))}</td></tr>`,
)}
</tbody></table></div>${when(subs.items.length === 0, () => html`<p class="muted">No subscriptions yet.</p>`)}`,
    });
  };

  const detail = async (s: SessionContext, id: string, notice?: { text: string; error?: boolean }, secret?: string) => {
    const [w, attempts] = await Promise.all([
      d.webhooks.get.execute(s.actor, id),
      d.webhooks.listAttempts.execute(s.actor, id, FIRST(50)),
    ]);
    const write = can(s, 'webhooks:write');
    const action = (path: string, label: string) =>
      html`<form method="post" action="/dashboard/webhooks/${w.id}/${path}">${csrf(s)}<button type="submit">${label}</button></form>`;
    return page({
      title: `Webhook ${w.url}`,
      current: '/dashboard/webhooks',
      session: s,
      notice,
      body: html`${when(
        secret,
        () => html`<div class="card" role="status"><p>The new signing secret, shown only this once; for 24 hours deliveries are signed with the previous secret too:</p>
<label for="new-secret">Signing secret</label><input id="new-secret" class="secret" readonly value="${secret}">
<button type="button" data-copy="new-secret">Copy</button></div>`,
      )}<div class="card"><p>Events: ${w.events.join(', ')}</p>
<p>State: <strong>${w.enabled ? 'enabled' : 'disabled'}</strong>${w.disabledReason ? ` (${w.disabledReason})` : ''}</p>
${when(write, () => html`<div class="inline">${action('test', 'Send test event')}${when(!w.enabled, () => action('enable', 'Re-enable'))}${action('rotate-secret', 'Rotate signing secret')}</div>`)}
${when(
  can(s, 'webhooks:delete'),
  () =>
    html`<form method="post" action="/dashboard/webhooks/${w.id}/delete" data-confirm="Delete the subscription to ${w.url}? Nothing more is sent to it.">${csrf(s)}<button class="danger" type="submit">Delete subscription</button></form>`,
)}</div>
<h2>Delivery log</h2>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Status</th><th scope="col">Time</th><th scope="col">Error</th>${write ? html`<th scope="col"><span class="sr">Actions</span></th>` : ''}</tr></thead><tbody>
${attempts.items.map(
  (
    a,
  ) => html`<tr><td>${dateTime(a.at, zoneOf(s))}</td><td>${a.eventType}</td><td>${a.attempt}</td><td>${a.statusCode ?? 'no answer'}</td><td>${a.latencyMs} ms</td><td>${a.error ?? ''}</td>
${when(write, () => html`<td><form method="post" action="/dashboard/webhooks/${w.id}/deliveries/${a.deliveryId}/replay">${csrf(s)}<button class="secondary" type="submit">Replay</button></form></td>`)}</tr>`,
)}
</tbody></table></div>${when(attempts.items.length === 0, () => html`<p class="muted">No deliveries yet.</p>`)}
<p><a href="/dashboard/webhooks">All subscriptions</a></p>`,
    });
  };

  r.get('/dashboard/webhooks', async (_ctx, s) => {
    requireScope(s, 'webhooks:read');
    return list(s);
  });
  r.post('/dashboard/webhooks', async (_ctx, s, form) => {
    requireScope(s, 'webhooks:write');
    try {
      const created = await d.webhooks.create.execute(s.actor, {
        url: field(form, 'url'),
        events: form.getAll('events'),
      });
      return list(s, { text: `Subscription to ${created.url} added.` }, created.secret);
    } catch (e) {
      if (isDomainError(e) && e.kind === 'invalid') return list(s, { text: describe(e), error: true });
      throw e;
    }
  });
  r.get('/dashboard/webhooks/:id', async (ctx, s) => {
    requireScope(s, 'webhooks:read');
    const sent =
      ctx.query.sent === '1' ? { text: 'Test event queued: it appears in the log once delivered.' } : undefined;
    return detail(s, ctx.params.id!, sent);
  });
  r.post('/dashboard/webhooks/:id/test', async (ctx, s) => {
    requireScope(s, 'webhooks:write');
    await d.webhooks.sendTest.execute(s.actor, ctx.params.id!);
    return { redirect: `/dashboard/webhooks/${ctx.params.id}?sent=1` };
  });
  r.post('/dashboard/webhooks/:id/rotate-secret', async (ctx, s) => {
    requireScope(s, 'webhooks:write');
    const rotated = await d.webhooks.rotateSecret.execute(s.actor, ctx.params.id!, {});
    return detail(s, ctx.params.id!, { text: 'Signing secret rotated.' }, rotated.secret);
  });
  r.post('/dashboard/webhooks/:id/delete', async (ctx, s) => {
    requireScope(s, 'webhooks:delete');
    await d.webhooks.remove.execute(s.actor, ctx.params.id!);
    return { redirect: '/dashboard/webhooks' };
  });
  r.post('/dashboard/webhooks/:id/enable', async (ctx, s) => {
    requireScope(s, 'webhooks:write');
    await d.webhooks.enable.execute(s.actor, ctx.params.id!);
    return { redirect: `/dashboard/webhooks/${ctx.params.id}` };
  });
  r.post('/dashboard/webhooks/:id/deliveries/:deliveryId/replay', async (ctx, s) => {
    requireScope(s, 'webhooks:write');
    await d.webhooks.replayDelivery.execute(s.actor, ctx.params.id!, ctx.params.deliveryId!);
    return { redirect: `/dashboard/webhooks/${ctx.params.id}` };
  });
}

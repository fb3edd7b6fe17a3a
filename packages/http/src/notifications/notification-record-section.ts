import type { PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { dateTime, html, when } from '../dashboard/html.js';
import { zoneOf } from '../dashboard/web.js';

const SHOWN = 25;

/**
 * The learner's record: the notifications sent to them, newest first (the latest 25), with channel, template, where
 * each stands (and why one was skipped) and when, in the tenant's time zone.
 */
export const learnerNotifications: PageSection<SlotOf<'learnerRecord'>> = {
  order: 50,
  scope: 'notifications:read',
  async render(d, s, at) {
    const learnerId = at.learner.id;
    const list = d.notifications.notifications.list;
    const first = await list.execute(s.actor, { recipientId: learnerId }, { kind: 'offset', offset: 0, limit: 1 });
    const offset = Math.max(0, first.total - SHOWN);
    const items =
      first.total <= 1
        ? first.items
        : (await list.execute(s.actor, { recipientId: learnerId }, { kind: 'offset', offset, limit: SHOWN })).items;
    const zone = zoneOf(s);
    return html`<h2>Notifications</h2>${when(
      items.length > 0,
      () => html`<div class="table" tabindex="0"><table><thead><tr><th scope="col">Time</th><th scope="col">Channel</th><th scope="col">Template</th><th scope="col">Status</th><th scope="col">Sent by</th></tr></thead><tbody>
${[...items].reverse().map((n) => {
  const last = n.history[n.history.length - 1];
  return html`<tr><td>${dateTime(n.createdAt, zone)}</td><td>${n.channel === 'whatsapp' ? 'WhatsApp' : 'email'}</td><td>${n.template}</td><td>${n.status}${last?.detail ? html` <span class="muted">(${last.detail})</span>` : ''}${n.status !== 'queued' && last ? html`<br><span class="muted">${dateTime(last.at, zone)}</span>` : ''}</td><td>${n.trigger ? `automatic (${n.trigger})` : 'staff or API'}</td></tr>`;
})}
</tbody></table></div>${when(first.total > SHOWN, () => html`<p class="muted">The latest ${SHOWN} of ${first.total}.</p>`)}`,
    )}${when(items.length === 0, () => html`<p class="muted">No notifications sent to this learner.</p>`)}`;
  },
};

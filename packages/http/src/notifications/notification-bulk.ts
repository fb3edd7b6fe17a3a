import type { DashboardDeps, PageRoutes, PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { html } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { chosenLearners, hidden, refusedFor, resultPage } from '../learners/learner-bulk.js';
import { field, requireScope } from '../dashboard/web.js';

/** The learners list's bulk action that sends the selection a notification: its form. */
export const bulkNotify: PageSection<SlotOf<'learnerBulk'>> = {
  order: 20,
  async render(d) {
    return {
      value: 'notify',
      label: 'Send a notification',
      secondary: true,
      scope: 'notifications:write',
      async start(_ctx, s, { ids, list }) {
        const templates = (await d.notifications.notificationTemplates.listTemplates.execute(s.actor)).data.filter(
          (t) => t.audience === 'learner',
        );
        const programmes = await d.training.listProgrammes.execute(
          s.actor,
          {},
          { kind: 'offset', offset: 0, limit: 200 },
        );
        return page({
          title: `Send a notification to ${ids.length} learner${ids.length === 1 ? '' : 's'}`,
          current: '/dashboard/learners',
          session: s,
          body: html`${list}<form class="card" method="post" action="/dashboard/learners/bulk/notify">${csrf(s)}${hidden(ids)}
<label for="b-template">Template</label><select id="b-template" name="template">${templates.map((t) => html`<option value="${t.key}">${t.key}: ${t.description}</option>`)}</select>
<label for="b-channel">Channel</label><select id="b-channel" name="channel"><option value="email">Email</option><option value="whatsapp">WhatsApp</option></select>
<label for="b-about">About the enrolment in</label><select id="b-about" name="programmeCode"><option value="">each learner's current programme</option>${programmes.items.map((p) => html`<option value="${p.code}">${p.name} (${p.code})</option>`)}</select>
<p class="muted">Each message is filled in from the learner's own record: their name, and from that enrolment the programme, its expected end date and the latest result. A learner who opted out of email, or gave no WhatsApp consent, is skipped, as by the API.</p>
<button type="submit">Send</button></form>`,
        });
      },
    };
  },
};

/** The bulk notification's post: each learner's message filled from their own record and sent by the API's call. */
export function bulkNotifyPages(r: PageRoutes, d: DashboardDeps): void {
  r.post('/dashboard/learners/bulk/notify', async (ctx, s, form) => {
    requireScope(s, 'notifications:write');
    const { ids, names, refused } = await chosenLearners(ctx, d, s, form);
    if (refused) return refused;
    const channel = field(form, 'channel') === 'whatsapp' ? 'whatsapp' : 'email';
    const template = field(form, 'template') ?? '';
    const programmeCode = field(form, 'programmeCode');
    const rows = [];
    for (const id of ids) {
      try {
        const variables = await d.notifications.notifications.learnerValues.execute(s.actor, id, programmeCode);
        const n = await d.notifications.notifications.send.execute(s.actor, {
          learnerId: id,
          channel,
          template,
          variables,
        });
        const why = n.history[n.history.length - 1]?.detail;
        rows.push({
          id,
          result: n.status === 'skipped' ? `skipped${why ? `: ${why}` : ''}` : `${n.status} (${channel})`,
          refused: false,
        });
      } catch (e) {
        rows.push({ id, result: refusedFor(e), refused: true });
      }
    }
    return resultPage(s, 'Notification to the selection', names, rows);
  });
}

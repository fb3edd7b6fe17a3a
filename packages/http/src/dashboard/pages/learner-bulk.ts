import type { LearnerName } from '@fundi/application/learners';
import type { SessionContext } from '@fundi/application/staff';
import { isDomainError } from '@fundi/domain';
import type { Context } from 'koa';
import type { Answer, DashboardDeps, PageRoutes } from '../dashboard-deps.js';
import { type Html, html, when } from '../html.js';
import { csrf, page } from '../layout.js';
import { can, field, requireScope } from '../web.js';
import { describe } from './api-keys.js';

/** At most one page of the learners list is selected at once; a larger post is refused. */
const MAX_SELECTED = 100;

/** The learners ticked in the list (`learner` fields), each once, in the order posted. */
function selection(form: URLSearchParams): string[] {
  return [...new Set(form.getAll('learner').map((v) => v.trim()))].filter((v) => v.length > 0);
}

const hidden = (ids: readonly string[]) =>
  html`${ids.map((id) => html`<input type="hidden" name="learner" value="${id}">`)}`;

function who(names: Map<string, LearnerName>, id: string): Html {
  const n = names.get(id);
  return n
    ? html`<a href="/dashboard/learners/${id}">${n.name}</a>${n.idNumber ? html` <span class="muted nowrap">${n.idNumber}</span>` : ''}`
    : html`<span class="muted">a learner that no longer exists</span>`;
}

/** The page after a bulk action: what happened to each learner. */
function resultPage(
  s: SessionContext,
  title: string,
  names: Map<string, LearnerName>,
  rows: { id: string; result: string; refused: boolean }[],
  after?: Html,
): Html {
  const refused = rows.filter((r) => r.refused).length;
  return page({
    title,
    current: '/dashboard/learners',
    session: s,
    notice: {
      text: `${rows.length - refused} of ${rows.length} done${refused ? `; ${refused} refused (see below)` : ''}.`,
      error: refused > 0,
    },
    body: html`<div class="table" tabindex="0"><table><thead><tr><th scope="col">Learner</th><th scope="col">Result</th></tr></thead><tbody>
${rows.map((r) => html`<tr><td>${who(names, r.id)}</td><td>${r.result}</td></tr>`)}
</tbody></table></div>${after ?? ''}<p><a href="/dashboard/learners">Back to the learners</a></p>`,
  });
}

/** The list's buttons for what the role may do with a selection, or null when it may do none of it. */
export function bulkActions(s: SessionContext): Html | null {
  const enrol = can(s, 'enrolments:write');
  const notify = can(s, 'notifications:write');
  const exportThem = can(s, 'exports:write');
  if (!enrol && !notify && !exportThem) return null;
  return html`<fieldset><legend>With the selected learners</legend>
${when(enrol, () => html`<button type="submit" name="action" value="enrol">Enrol in a programme</button> `)}${when(notify, () => html`<button type="submit" name="action" value="notify" class="secondary">Send a notification</button> `)}${when(exportThem, () => html`<button type="submit" name="action" value="export" class="secondary">Export</button>`)}
</fieldset>`;
}

/** The words of a refusal for one learner of a bulk action; anything but a refusal is rethrown. */
function refusedFor(e: unknown): string {
  if (isDomainError(e) && e.kind !== 'unavailable' && e.kind !== 'rate_limited') return `refused: ${describe(e)}`;
  throw e;
}

/**
 * Bulk actions on a selection of the learners list (docs/dashboard.md, "Pages"): enrol them in a programme, send
 * them a notification, or export them. Each is the API's own call per learner, so its rules and refusals hold.
 */
export function learnerBulkPages(r: PageRoutes, d: DashboardDeps): void {
  const chosen = async (ctx: Context, s: SessionContext, form: URLSearchParams) => {
    requireScope(s, 'learners:read');
    const ids = selection(form);
    if (ids.length === 0 || ids.length > MAX_SELECTED) {
      ctx.status = 400;
      return {
        ids,
        names: new Map<string, LearnerName>(),
        refused: page({
          title: 'Learners',
          current: '/dashboard/learners',
          session: s,
          notice: {
            text: ids.length === 0 ? 'Select at least one learner first.' : `Select at most ${MAX_SELECTED} learners.`,
            error: true,
          },
          body: html`<p><a href="/dashboard/learners">Back to the learners</a></p>`,
        }),
      };
    }
    return { ids, names: await d.learners.learnerNames.execute(s.actor, ids), refused: null };
  };

  r.post('/dashboard/learners/bulk', async (ctx, s, form): Promise<Answer> => {
    const { ids, names, refused } = await chosen(ctx, s, form);
    if (refused) return refused;
    const action = field(form, 'action');
    const list = html`<ul>${ids.map((id) => html`<li>${who(names, id)}</li>`)}</ul>`;
    if (action === 'enrol') {
      requireScope(s, 'enrolments:write');
      const programmes = await d.training.listProgrammes.execute(
        s.actor,
        { status: 'active' },
        { kind: 'offset', offset: 0, limit: 200 },
      );
      const today = d.now().toISOString().slice(0, 10);
      return page({
        title: `Enrol ${ids.length} learner${ids.length === 1 ? '' : 's'}`,
        current: '/dashboard/learners',
        session: s,
        body: html`${list}<form class="card" method="post" action="/dashboard/learners/bulk/enrol">${csrf(s)}${hidden(ids)}
<label for="b-programme">Programme</label><select id="b-programme" name="programmeCode" required>${programmes.items.map((p) => html`<option value="${p.code}">${p.name} (${p.code})</option>`)}</select>
<label for="b-start">Start date</label><input id="b-start" name="startDate" type="date" value="${today}" required>
<label for="b-end">Expected end date (optional)</label><input id="b-end" name="expectedEndDate" type="date">
<button type="submit">Enrol them</button></form>`,
      });
    }
    if (action === 'notify') {
      requireScope(s, 'notifications:write');
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
    }
    if (action === 'export') {
      requireScope(s, 'exports:write');
      const made = await d.exports.request.execute(
        s.actor,
        { type: 'learners', filters: { learnerIds: ids } },
        `${ctx.protocol}://${ctx.host}`,
      );
      return { redirect: `/dashboard/exports?started=${made.id}` };
    }
    ctx.status = 400;
    return page({
      title: 'Learners',
      current: '/dashboard/learners',
      session: s,
      notice: { text: 'action must be enrol, notify or export', error: true },
      body: html`<p><a href="/dashboard/learners">Back to the learners</a></p>`,
    });
  });

  r.post('/dashboard/learners/bulk/enrol', async (ctx, s, form) => {
    requireScope(s, 'enrolments:write');
    const { ids, names, refused } = await chosen(ctx, s, form);
    if (refused) return refused;
    const programmeCode = field(form, 'programmeCode');
    const rows = [];
    for (const id of ids) {
      try {
        await d.training.enrolLearner.execute(s.actor, {
          learnerId: id,
          programmeCode,
          startDate: field(form, 'startDate'),
          expectedEndDate: field(form, 'expectedEndDate'),
        });
        rows.push({ id, result: `enrolled in ${programmeCode}`, refused: false });
      } catch (e) {
        if (isDomainError(e) && e.code === 'open_enrolment_exists')
          rows.push({ id, result: `already enrolled in ${programmeCode}`, refused: false });
        else rows.push({ id, result: refusedFor(e), refused: true });
      }
    }
    return resultPage(s, 'Enrolment of the selection', names, rows);
  });

  r.post('/dashboard/learners/bulk/notify', async (ctx, s, form) => {
    requireScope(s, 'notifications:write');
    const { ids, names, refused } = await chosen(ctx, s, form);
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

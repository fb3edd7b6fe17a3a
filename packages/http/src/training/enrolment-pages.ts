import { ENROLMENT_STATUSES, type EnrolmentStatus } from '@fundi/domain/training';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { html, when } from '../dashboard/html.js';
import { page } from '../dashboard/layout.js';
import { requireScope } from '../dashboard/web.js';
import { namesFor, person } from '../dashboard/forms/person.js';

const PAGE = 25;
const label = (s: string) => s.replace('_', ' ');

/** Enrolments filtered by status and programme (the API's filters), with each one's progress. */
export function enrolmentPages(r: PageRoutes, d: DashboardDeps): void {
  r.get('/dashboard/enrolments', async (ctx, s) => {
    requireScope(s, 'enrolments:read');
    const status = (ENROLMENT_STATUSES as readonly string[]).includes(String(ctx.query.status))
      ? (ctx.query.status as EnrolmentStatus)
      : undefined;
    const programme = typeof ctx.query.programme === 'string' ? ctx.query.programme.trim().slice(0, 50) : '';
    const n = Math.max(0, Math.min(10_000, Number.parseInt(String(ctx.query.page ?? '0'), 10) || 0));
    const found = await d.training.listEnrolments.execute(
      s.actor,
      { ...(status ? { status } : {}), ...(programme ? { programmeCode: programme } : {}) },
      { kind: 'offset', offset: n * PAGE, limit: PAGE },
    );
    const [names, programmes] = await Promise.all([
      namesFor(
        d,
        s,
        found.items.map((e) => e.learnerId),
      ),
      d.training.listProgrammes.execute(s.actor, {}, { kind: 'offset', offset: 0, limit: 200 }),
    ]);
    const programmeName = new Map(programmes.items.map((p) => [p.id, p.name]));
    const pages = Math.max(1, Math.ceil(found.total / PAGE));
    const query = (to: number) =>
      new URLSearchParams({
        ...(status ? { status } : {}),
        ...(programme ? { programme } : {}),
        page: String(to),
      }).toString();
    return page({
      title: 'Enrolments',
      current: '/dashboard/enrolments',
      session: s,
      body: html`<form class="inline" method="get" action="/dashboard/enrolments">
<div><label for="status">Status</label><select id="status" name="status"><option value="">any</option>${ENROLMENT_STATUSES.map((x) => html`<option value="${x}"${x === status ? ' selected' : ''}>${label(x)}</option>`)}</select></div>
<div><label for="programme">Programme code</label><input id="programme" name="programme" value="${programme}"></div>
<button type="submit">Filter</button></form>
<p>${found.total} enrolment${found.total === 1 ? '' : 's'} · page ${n + 1} of ${pages}.</p>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Learner</th><th scope="col">Programme</th><th scope="col">Status</th><th scope="col">Start</th><th scope="col">Progress</th></tr></thead><tbody>
${found.items.map(
  (e) =>
    html`<tr><td>${person(names, e.learnerId)}</td><td><a href="/dashboard/enrolments/${e.id}">${programmeName.get(e.programmeId) ?? e.programmeCode}</a> <span class="muted">${e.programmeCode}</span></td><td>${label(e.status)}</td><td>${e.startDate}</td><td>${e.progress.competent} of ${e.progress.total} modules</td></tr>`,
)}
</tbody></table></div>
<nav aria-label="Pages" class="inline">${when(n > 0, () => html`<a href="/dashboard/enrolments?${query(n - 1)}">Previous</a>`)} ${when(found.hasMore, () => html`<a href="/dashboard/enrolments?${query(n + 1)}">Next</a>`)}</nav>`,
    });
  });
}

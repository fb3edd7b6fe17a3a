import type { DashboardDeps, PageRoutes } from '../dashboard-deps.js';
import { dateTime, html, when } from '../html.js';
import { page } from '../layout.js';
import { can, requireScope, zoneOf } from '../web.js';
import { learnerRecord } from './learner-record.js';

const PAGE = 25;
/** What the learner's page says after a form on it succeeded (`?done=`). */
const DONE: Record<string, string> = {
  enrolled: 'Enrolled.',
  status: 'The enrolment status is changed.',
  assessed: 'The result is recorded.',
  uploaded: 'The evidence is uploaded.',
};

/** Learners: a searchable list, and one learner's record with progress per module and their evidence. */
export function learnerPages(r: PageRoutes, d: DashboardDeps): void {
  r.get('/dashboard/learners', async (ctx, s) => {
    requireScope(s, 'learners:read');
    const q = typeof ctx.query.q === 'string' ? ctx.query.q.trim().slice(0, 100) : '';
    const n = Math.max(0, Math.min(10_000, Number.parseInt(String(ctx.query.page ?? '0'), 10) || 0));
    const found = await d.learners.listLearners.execute(s.actor, q ? { search: q } : {}, {
      kind: 'offset',
      offset: n * PAGE,
      limit: PAGE,
    });
    const link = (to: number) =>
      `/dashboard/learners?${new URLSearchParams({ ...(q ? { q } : {}), page: String(to) })}`;
    return page({
      title: 'Learners',
      current: '/dashboard/learners',
      session: s,
      body: html`${when(can(s, 'learners:write'), () => html`<p><a class="button" href="/dashboard/learners/new">Add a learner</a></p>`)}
<form class="inline" method="get" action="/dashboard/learners" role="search">
<label class="row" for="q">Search by name, ID number, mobile, email or employee reference</label>
<input id="q" name="q" value="${q}" type="search"><button type="submit">Search</button></form>
<p>${found.total} learner${found.total === 1 ? '' : 's'}${q ? html` matching "${q}"` : ''} · page ${n + 1} of ${Math.max(1, Math.ceil(found.total / PAGE))}.</p>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Name</th><th scope="col">ID number</th><th scope="col">Email</th><th scope="col">Registered</th></tr></thead><tbody>
${found.items.map(
  (l) =>
    html`<tr><td><a href="/dashboard/learners/${l.id}">${l.firstName} ${l.lastName}</a></td><td>${l.idNumber ?? ''}</td><td>${l.email ?? ''}</td><td>${dateTime(l.createdAt, zoneOf(s))}</td></tr>`,
)}
</tbody></table></div>
<nav aria-label="Pages" class="inline">${when(n > 0, () => html`<a href="${link(n - 1)}">Previous</a>`)} ${when(found.hasMore, () => html`<a href="${link(n + 1)}">Next</a>`)}</nav>`,
    });
  });

  r.get('/dashboard/learners/:id', async (ctx, s) => {
    const uploaded = Number.parseInt(String(ctx.query.uploaded ?? ''), 10);
    const done =
      uploaded > 0
        ? `${uploaded} file${uploaded === 1 ? '' : 's'} uploaded.`
        : typeof ctx.query.done === 'string'
          ? DONE[ctx.query.done]
          : undefined;
    return learnerRecord(d, s, ctx.params.id!, done ? { text: done } : undefined);
  });
}

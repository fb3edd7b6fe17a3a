import type { DashboardDeps, PageRoutes } from '../dashboard-deps.js';
import { dateTime, html, when } from '../html.js';
import { page } from '../layout.js';
import { can, requireScope } from '../web.js';

const PAGE = 25;

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
      body: html`<form class="inline" method="get" action="/dashboard/learners" role="search">
<label class="row" for="q">Search by name, email or ID number</label>
<input id="q" name="q" value="${q}" type="search"><button type="submit">Search</button></form>
<p>${found.total} learner${found.total === 1 ? '' : 's'}${q ? html` matching "${q}"` : ''}.</p>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Name</th><th scope="col">ID number</th><th scope="col">Email</th><th scope="col">Registered</th></tr></thead><tbody>
${found.items.map(
  (l) =>
    html`<tr><td><a href="/dashboard/learners/${l.id}">${l.firstName} ${l.lastName}</a></td><td>${l.idNumber ?? ''}</td><td>${l.email ?? ''}</td><td>${dateTime(l.createdAt)}</td></tr>`,
)}
</tbody></table></div>
<nav aria-label="Pages" class="inline">${when(n > 0, () => html`<a href="${link(n - 1)}">Previous</a>`)} ${when(found.hasMore, () => html`<a href="${link(n + 1)}">Next</a>`)}</nav>`,
    });
  });

  r.get('/dashboard/learners/:id', async (ctx, s) => {
    requireScope(s, 'learners:read');
    const l = await d.learners.getLearner.execute(s.actor, ctx.params.id!);
    const all = { kind: 'offset', offset: 0, limit: 100 } as const;
    const [enrolments, evidence, hours] = await Promise.all([
      can(s, 'enrolments:read') ? d.training.listEnrolments.execute(s.actor, { learnerId: l.id }, all) : null,
      can(s, 'evidence:read') ? d.evidence.reviews.list(s.actor, { learnerId: l.id }, all) : null,
      can(s, 'logbooks:read') ? d.logbooks.progress.forLearner(s.actor, l.id) : null,
    ]);
    const row = (label: string, v: string | null | undefined) =>
      html`<tr><th scope="row">${label}</th><td>${v ?? '-'}</td></tr>`;
    return page({
      title: `${l.firstName} ${l.lastName}`,
      current: '/dashboard/learners',
      session: s,
      body: html`<div class="table" tabindex="0"><table><tbody>
${row('ID number', l.idNumber)}${row('Date of birth', l.dateOfBirth)}${row('Email', l.email)}${row('Mobile', l.mobile)}
${row('Employer', l.employer)}${row('Employee reference', l.employeeRef)}${row('Registered', dateTime(l.createdAt))}
</tbody></table></div>
${when(
  enrolments,
  () =>
    html`<h2>Enrolments</h2>${enrolments!.items.map(
      (
        e,
      ) => html`<div class="card"><h3>${e.programmeCode} <span class="muted">(${e.status.replace('_', ' ')}, from ${e.startDate})</span></h3>
<p>${e.progress.competent} of ${e.progress.total} modules competent.</p>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Module</th><th scope="col">Kind</th><th scope="col">Latest result</th></tr></thead><tbody>
${e.progress.modules.map((m) => html`<tr><td>${m.code} ${m.name}</td><td>${m.kind}</td><td>${m.latestOutcome ?? 'not assessed'}${m.moderated ? ' (moderated)' : ''}</td></tr>`)}
</tbody></table></div></div>`,
    )}${when(enrolments!.items.length === 0, () => html`<p class="muted">No enrolments.</p>`)}`,
)}
${when(
  hours?.length,
  () => html`<h2>Workplace hours</h2><div class="table" tabindex="0"><table><thead><tr><th scope="col">Module</th><th scope="col">Logged</th><th scope="col">Signed</th><th scope="col">Required</th><th scope="col">Ready for assessment</th></tr></thead><tbody>
${hours!.map((h) => html`<tr><td>${h.moduleCode}</td><td>${h.logged}</td><td>${h.signed}</td><td>${h.required ?? '-'}</td><td>${h.ready ? 'yes' : 'no'}</td></tr>`)}
</tbody></table></div>`,
)}
${when(
  evidence,
  () => html`<h2>Evidence</h2><div class="table" tabindex="0"><table><thead><tr><th scope="col">File</th><th scope="col">Module</th><th scope="col">Status</th><th scope="col">Uploaded</th></tr></thead><tbody>
${evidence!.items.map((e) => html`<tr><td><a href="/dashboard/evidence/${e.id}">${e.filename}</a></td><td>${e.moduleId}</td><td>${e.status.replace('_', ' ')}</td><td>${dateTime(e.createdAt)}</td></tr>`)}
</tbody></table></div>`,
)}`,
    });
  });
}

import type { SessionContext } from '@fundi/application/staff';
import type { RosterQuery, RosterSort } from '@fundi/application/training';
import { DomainError } from '@fundi/domain';
import { ENROLMENT_STATUSES, type EnrolmentStatus } from '@fundi/domain/training';
import type { Context } from 'koa';
import type { DashboardDeps } from '../dashboard/dashboard-deps.js';
import { type Html, html, when } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { bulkActions } from './learner-bulk.js';
import { can, requireScope } from '../dashboard/web.js';

const PAGE = 25;
const SORTS: readonly RosterSort[] = ['name', 'idNumber', 'programme', 'status', 'start'];
const HEADINGS: Record<RosterSort, string> = {
  name: 'Name',
  idNumber: 'ID number',
  programme: 'Programme',
  status: 'Status',
  start: 'Start date',
};
const statusLabel = (x: string) => x.replace('_', ' ');

/**
 * The first or last day of a start period: a month `2026-03` or a quarter `2026-Q1` (any case). Anything else is
 * refused with the field's name.
 */
export function periodBound(name: string, v: string, end: boolean): string {
  const month = /^(\d{4})-(\d{2})$/.exec(v);
  const quarter = /^(\d{4})-q([1-4])$/i.exec(v);
  let year: number;
  let first: number;
  let last: number;
  if (month && Number(month[2]) >= 1 && Number(month[2]) <= 12) {
    year = Number(month[1]);
    first = last = Number(month[2]);
  } else if (quarter) {
    year = Number(quarter[1]);
    first = (Number(quarter[2]) - 1) * 3 + 1;
    last = first + 2;
  } else throw DomainError.invalid(name, 'must be a month (2026-03) or a quarter (2026-Q1)');
  const m = end ? last : first;
  const day = end ? new Date(Date.UTC(year, m, 0)).getUTCDate() : 1;
  return `${year}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const text = (ctx: Context, name: string, max: number) =>
  typeof ctx.query[name] === 'string' ? (ctx.query[name] as string).trim().slice(0, max) : '';

/**
 * Learners: search, filters (programme, status, start period, employer; any case), sortable columns, 25 a page,
 * and a selection for the bulk actions (docs/dashboard.md, "Pages").
 */
export async function learnerList(ctx: Context, d: DashboardDeps, s: SessionContext): Promise<Html> {
  requireScope(s, 'learners:read');
  requireScope(s, 'enrolments:read');
  const q = text(ctx, 'q', 100);
  const programme = text(ctx, 'programme', 50);
  const employer = text(ctx, 'employer', 100);
  const from = text(ctx, 'from', 10);
  const to = text(ctx, 'to', 10);
  const status = (ENROLMENT_STATUSES as readonly string[]).includes(String(ctx.query.status))
    ? (ctx.query.status as EnrolmentStatus)
    : undefined;
  const sort = (SORTS as readonly string[]).includes(String(ctx.query.sort)) ? (ctx.query.sort as RosterSort) : 'name';
  const descending = ctx.query.dir === 'desc';
  const n = Math.max(0, Math.min(10_000, Number.parseInt(String(ctx.query.page ?? '0'), 10) || 0));
  const query: RosterQuery = {
    sort,
    descending,
    ...(q ? { search: q } : {}),
    ...(employer ? { employer } : {}),
    ...(programme ? { programmeCode: programme } : {}),
    ...(status ? { status } : {}),
    ...(from ? { startFrom: periodBound('from', from, false) } : {}),
    ...(to ? { startTo: periodBound('to', to, true) } : {}),
  };
  const [found, programmes, actions] = await Promise.all([
    d.training.listLearnerRoster.execute(s.actor, query, { offset: n * PAGE, limit: PAGE }),
    d.training.listProgrammes.execute(s.actor, {}, { kind: 'offset', offset: 0, limit: 200 }),
    bulkActions(d, s),
  ]);
  const programmeName = new Map(programmes.items.map((p) => [p.code, p.name]));
  const filters = {
    ...(q ? { q } : {}),
    ...(programme ? { programme } : {}),
    ...(status ? { status } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(employer ? { employer } : {}),
  };
  const link = (over: Record<string, string>) =>
    `/dashboard/learners?${new URLSearchParams({ ...filters, sort, ...(descending ? { dir: 'desc' } : {}), page: String(n), ...over })}`;
  const heading = (c: RosterSort) => {
    const on = c === sort;
    const next = on && !descending ? 'desc' : 'asc';
    return html`<th scope="col"${on ? html` aria-sort="${descending ? 'descending' : 'ascending'}"` : ''}><a href="${link({ sort: c, dir: next, page: '0' })}">${HEADINGS[c]}<span class="sr"> (sort ${next === 'asc' ? 'ascending' : 'descending'})</span></a>${on ? (descending ? ' ▼' : ' ▲') : ''}</th>`;
  };
  const pages = Math.max(1, Math.ceil(found.total / PAGE));
  const bulk = actions !== null;
  const selectedStatus = (x: string) => (x === status ? html` selected` : '');
  return page({
    title: 'Learners',
    current: '/dashboard/learners',
    session: s,
    body: html`${when(can(s, 'learners:write'), () => html`<p><a class="button" href="/dashboard/learners/new">Add a learner</a></p>`)}
<form class="card" method="get" action="/dashboard/learners" role="search"><div class="grid2">
<div><label for="q">Search by name, ID number, mobile, email or employee reference</label><input id="q" name="q" value="${q}" type="search"></div>
<div><label for="f-programme">Programme</label><select id="f-programme" name="programme"><option value="">Any programme</option>${programmes.items.map((p) => html`<option value="${p.code}"${p.code.toLowerCase() === programme.toLowerCase() ? html` selected` : ''}>${p.name} (${p.code})</option>`)}</select></div>
<div><label for="f-status">Enrolment status</label><select id="f-status" name="status"><option value="">Any status</option>${ENROLMENT_STATUSES.map((x) => html`<option value="${x}"${selectedStatus(x)}>${statusLabel(x)}</option>`)}</select></div>
<div><label for="f-employer">Employer (part of the name)</label><input id="f-employer" name="employer" value="${employer}"></div>
<div><label for="f-from">Started from (month 2026-03 or quarter 2026-Q1)</label><input id="f-from" name="from" value="${from}" inputmode="text" maxlength="10"></div>
<div><label for="f-to">Started up to (month or quarter)</label><input id="f-to" name="to" value="${to}" maxlength="10"></div>
</div><input type="hidden" name="sort" value="${sort}">${when(descending, () => html`<input type="hidden" name="dir" value="desc">`)}<button type="submit">Search</button> <a href="/dashboard/learners">Clear</a></form>
<p>${found.total} learner${found.total === 1 ? '' : 's'}${q ? html` matching "${q}"` : ''} · page ${n + 1} of ${pages}.</p>
<form method="post" action="/dashboard/learners/bulk">${csrf(s)}
<div class="table" tabindex="0"><table><thead><tr>${when(bulk, () => html`<th scope="col"><span class="sr">Select</span></th>`)}${SORTS.map(heading)}<th scope="col">Employer</th></tr></thead><tbody>
${found.items.map(({ learner: l, enrolments }) => {
  const name = `${l.firstName} ${l.lastName}`;
  const list = (f: (e: (typeof enrolments)[number]) => string | Html) =>
    enrolments.length
      ? html`${enrolments.map((e, i) => html`${i ? html`<br>` : ''}${f(e)}`)}`
      : html`<span class="muted">-</span>`;
  return html`<tr>${when(bulk, () => html`<td class="pick"><input type="checkbox" name="learner" value="${l.id}" id="pick-${l.id}"><label class="sr" for="pick-${l.id}">Select ${name}</label></td>`)}<td><a href="/dashboard/learners/${l.id}">${name}</a></td><td>${l.idNumber ?? l.alternateId ?? ''}</td><td>${list((e) => html`${programmeName.get(e.programmeCode) ?? e.programmeCode} <span class="muted">${e.programmeCode}</span>`)}</td><td>${list((e) => statusLabel(e.status))}</td><td>${list((e) => e.startDate)}</td><td>${l.employer ?? ''}</td></tr>`;
})}
</tbody></table></div>${when(found.items.length === 0, () => html`<p class="muted">No learner matches.</p>`)}
${found.items.length > 0 ? actions : null}</form>
<nav aria-label="Pages" class="inline">${when(n > 0, () => html`<a href="${link({ page: String(n - 1) })}">Previous</a>`)} ${when(found.hasMore, () => html`<a href="${link({ page: String(n + 1) })}">Next</a>`)}</nav>`,
  });
}

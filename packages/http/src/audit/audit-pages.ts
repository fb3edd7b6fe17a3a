import type { AuditFilter } from '@fundi/domain/audit';
import type { Context } from 'koa';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { html, when } from '../dashboard/html.js';
import { page } from '../dashboard/layout.js';
import { requireScope, zoneOf } from '../dashboard/web.js';
import { historyTable } from './history-table.js';

const PAGE = 50;
const FIELDS = [
  ['entityType', 'Entity type'],
  ['entityId', 'Entity id'],
  ['learnerId', 'Learner id'],
  ['actorId', 'Actor id'],
  ['action', 'Action'],
  ['from', 'From (date)'],
  ['to', 'To (date)'],
] as const;
type Field = (typeof FIELDS)[number][0];

const text = (ctx: Context, k: string) =>
  typeof ctx.query[k] === 'string' ? String(ctx.query[k]).trim().slice(0, 64) : '';
const date = (v: string, end: boolean) =>
  /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : undefined;

/** The audit trail for admins and managers (`audit:read`), with the API's filters (docs/dashboard.md, "Audit"). */
export function auditPages(r: PageRoutes, d: DashboardDeps): void {
  r.get('/dashboard/audit', async (ctx, s) => {
    requireScope(s, 'audit:read');
    const q = Object.fromEntries(FIELDS.map(([k]) => [k, text(ctx, k)])) as Record<Field, string>;
    const filter: AuditFilter = {
      ...(q.entityType ? { entityType: q.entityType } : {}),
      ...(q.entityId ? { entityId: q.entityId } : {}),
      ...(q.learnerId ? { learnerId: q.learnerId } : {}),
      ...(q.actorId ? { actorId: q.actorId } : {}),
      ...(q.action ? { action: q.action } : {}),
      from: date(q.from, false),
      to: date(q.to, true),
    };
    const n = Math.max(0, Math.min(10_000, Number.parseInt(String(ctx.query.page ?? '0'), 10) || 0));
    const found = await d.audit!.list(s.actor, filter, { kind: 'offset', offset: n * PAGE, limit: PAGE });
    const link = (to: number) =>
      `/dashboard/audit?${new URLSearchParams({ ...Object.fromEntries(Object.entries(q).filter(([, v]) => v)), page: String(to) })}`;
    return page({
      title: 'Audit trail',
      current: '/dashboard/audit',
      session: s,
      body: html`<form class="inline" method="get" action="/dashboard/audit">
${FIELDS.map(
  ([k, label]) =>
    html`<div><label for="${k}">${label}</label><input id="${k}" name="${k}" value="${q[k]}"${k === 'from' || k === 'to' ? html` type="date"` : ''}></div>`,
)}
<button type="submit">Filter</button></form>
<p>${found.total} entr${found.total === 1 ? 'y' : 'ies'}, newest first.</p>
${historyTable(found.items, zoneOf(s))}
<nav aria-label="Pages" class="inline">${when(n > 0, () => html`<a href="${link(n - 1)}">Previous</a>`)} ${when(found.hasMore, () => html`<a href="${link(n + 1)}">Next</a>`)}</nav>`,
    });
  });
}

import type { SessionContext } from '@fundi/application/staff';
import type { ExportView } from '@fundi/application/exports';
import { isDomainError } from '@fundi/domain';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { type Html, bytes, dateTime, html, raw, when } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { can, field, requireScope, zoneOf } from '../dashboard/web.js';
import { describe } from '../tenants/api-key-pages.js';

const REGULATOR = ['qcto01', 'qcto02'] as const;

/**
 * A running export's bar: rows written of the rows it will hold (a bar without an end when that is not known), or
 * waiting for the worker while queued.
 */
function progressOf(e: ExportView): Html {
  if (e.status === 'queued' || e.processedRows === null)
    return html`queued <span class="muted">(waiting for the worker)</span>`;
  const done = e.processedRows;
  const total = e.totalRows;
  const words = total === null ? `${done} rows written so far` : `${Math.min(done, total)} of ${total} rows written`;
  return html`processing<br><progress ${total === null ? '' : html`max="${Math.max(total, 1)}" value="${Math.min(done, total)}" `}aria-label="${words}"></progress> <span class="nowrap">${words}</span>`;
}

/**
 * Exports: request one (the worker writes it; the page refreshes itself while any is running), download when
 * ready through the API's signed URL, and check a QCTO file's readiness before creating it.
 */
export function exportPages(r: PageRoutes, d: DashboardDeps): void {
  const x = d.exports;
  const labelOf = (type: string) => d.exportTypes.find((t) => t.name === type)?.label ?? type;
  // The export form offers every type a request may name but the regulator files (checked first on their own form).
  const offered = d.exportTypes.filter((t) => !t.fullOnly && !(REGULATOR as readonly string[]).includes(t.name));
  const render = async (s: SessionContext, extra: { notice?: string; error?: boolean }) => {
    const first = await x.list.execute(s.actor, { kind: 'offset', offset: 0, limit: 1 });
    const offset = Math.max(0, first.total - 50);
    const items = (await x.list.execute(s.actor, { kind: 'offset', offset, limit: 50 })).items.reverse();
    const running = items.some((e) => e.status === 'queued' || e.status === 'processing');
    const write = can(s, 'exports:write');
    return page({
      title: 'Exports',
      current: '/dashboard/exports',
      session: s,
      // The page's script polls the list while one runs; without script the page refreshes itself.
      head: running ? raw('<noscript><meta http-equiv="refresh" content="3"></noscript>') : undefined,
      notice: extra.notice ? { text: extra.notice, error: extra.error } : null,
      body: html`${when(
        write,
        () => html`<form class="card" method="post" action="/dashboard/exports">${csrf(s)}<h2>New export</h2>
<label for="export-type">What</label><select id="export-type" name="type">${offered.filter((t) => !t.scope || can(s, t.scope)).map((t) => html`<option value="${t.name}">${t.label}</option>`)}</select>
<label for="export-from">From (optional)</label><input id="export-from" name="from" type="date">
<label for="export-to">To (optional)</label><input id="export-to" name="to" type="date">
<button type="submit">Start export</button></form>
<form class="card" method="post" action="/dashboard/exports/readiness">${csrf(s)}<h2>QCTO files</h2>
<p>Check which learners are ready before creating the file; learners with missing or invalid fields are left out.</p>
<label for="qcto-type">File</label><select id="qcto-type" name="type">${REGULATOR.map((t) => html`<option value="${t}">${labelOf(t)}</option>`)}</select>
<button type="submit">Check readiness</button></form>`,
      )}
<h2>Recent exports</h2>
<div id="export-list"${running ? html` data-poll="2000"` : ''}>
${when(running, () => html`<p class="muted" role="status">An export is running: its bar shows the rows written so far and moves while the worker writes the file (this list updates itself every 2 seconds). When it is done, a Download link appears in its row; the file is kept for a limited time (7 days unless your service says otherwise), then purged, and the row stays. You may leave this page meanwhile.</p>`)}
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Export</th><th scope="col">Status</th><th scope="col">Rows</th><th scope="col">Size</th><th scope="col">Requested</th><th scope="col"><span class="sr">Download</span></th></tr></thead><tbody>
${items.map(
  (
    e,
  ) => html`<tr><td>${labelOf(e.type)}${e.filters.learnerIds ? html` <span class="muted">(${e.filters.learnerIds.length} selected)</span>` : ''}</td><td>${e.status === 'queued' || e.status === 'processing' ? progressOf(e) : e.status}${e.error ? `: ${e.error}` : ''}${e.purgedAt ? (e.purgeReason === 'learner_erased' ? ' (file purged: a learner was erased)' : ' (file purged)') : ''}</td><td>${e.rowCount ?? ''}</td><td>${e.size === null ? '' : bytes(e.size)}</td><td>${dateTime(e.createdAt, zoneOf(s))}</td>
<td>${e.status === 'ready' && !e.purgedAt ? html`<a href="/dashboard/exports/${e.id}/download">Download ${e.fileName}</a>` : ''}</td></tr>`,
)}
</tbody></table></div>${when(items.length === 0, () => html`<p class="muted">No exports yet.</p>`)}</div>`,
    });
  };

  r.get('/dashboard/exports', async (ctx, s) => {
    requireScope(s, 'exports:read');
    // After a bulk export of a selection of learners (docs/dashboard.md, "Pages").
    return render(s, ctx.query.started ? { notice: 'The export is queued: its progress shows below.' } : {});
  });

  r.post('/dashboard/exports', async (ctx, s, form) => {
    requireScope(s, 'exports:write');
    const type = field(form, 'type') ?? '';
    const dates = { from: field(form, 'from'), to: field(form, 'to') };
    const filters = Object.fromEntries(Object.entries(dates).filter(([, v]) => v !== undefined));
    try {
      // The origin makes the `export.ready` download URL absolute when no public URL is configured.
      await x.request.execute(s.actor, { type, filters }, `${ctx.protocol}://${ctx.host}`);
    } catch (e) {
      if (isDomainError(e) && e.kind === 'invalid') return render(s, { notice: describe(e), error: true });
      throw e;
    }
    return { redirect: '/dashboard/exports' };
  });

  r.post('/dashboard/exports/readiness', async (_ctx, s, form) => {
    requireScope(s, 'exports:write');
    const type = field(form, 'type');
    if (type !== 'qcto01' && type !== 'qcto02')
      return render(s, { notice: 'type must be qcto01 or qcto02', error: true });
    // The report is a page of its own (a GET), so that a refresh shows it again.
    return { redirect: `/dashboard/readiness?type=${type}` };
  });

  // A link, not a form: reading a file changes nothing but the audit log (the URL issued is audited, as by the API).
  r.get('/dashboard/exports/:id/download', async (ctx, s) => {
    requireScope(s, 'exports:read');
    const grant = await x.downloadUrl.execute(s.actor, ctx.params.id!);
    return { redirect: grant.url };
  });
}

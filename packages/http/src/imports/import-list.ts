import type { SessionContext } from '@fundi/application/staff';
import type { DashboardDeps } from '../dashboard/dashboard-deps.js';
import { html, raw, when } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { requireScope } from '../dashboard/web.js';
import { RUNNING, STATUS_WORDS } from './import-report.js';

/** The imports page: the upload form (a dry run first by default), the templates, and the last 25 imports. */
export async function importList(d: DashboardDeps, s: SessionContext, notice?: { text: string; error?: boolean }) {
  const q = d.imports;
  requireScope(s, 'imports:read');
  const first = await q.listImports.execute(s.actor, {}, { kind: 'offset', offset: 0, limit: 1 });
  const recent = (
    await q.listImports.execute(s.actor, {}, { kind: 'offset', offset: Math.max(0, first.total - 25), limit: 25 })
  ).items.reverse();
  const running = recent.some((i) => RUNNING.has(i.status));
  return page({
    title: 'Imports',
    current: '/dashboard/imports',
    session: s,
    notice,
    head: running ? raw('<meta http-equiv="refresh" content="3">') : undefined,
    body: html`${when(
      s.actor.scopes.includes('imports:write'),
      () => html`<form class="card" method="post" action="/dashboard/imports" enctype="multipart/form-data">${csrf(s)}
<label for="imp-type">What the file holds</label><select id="imp-type" name="type">${q.kinds.types.map((t) => html`<option value="${t}">${t}</option>`)}</select>
<div class="check"><input type="checkbox" id="imp-dry" name="dryRun" value="1" checked> <label for="imp-dry">Check the file first and show me the report (nothing is written until I confirm)</label></div>
<div class="check"><input type="checkbox" id="imp-quiet" name="notifyNone" value="1"> <label for="imp-quiet">This is history: message nobody (no welcomes, no results; webhooks and HR still get the records)</label></div>
<label for="imp-sheet">Sheet of an Excel workbook to import (leave empty for the first sheet)</label><input id="imp-sheet" name="sheet" maxlength="31">
<label for="imp-file">Excel workbook (.xlsx) or CSV file (a header row; CSV separated by commas, semicolons or tabs; at most 100,000 rows)</label><input id="imp-file" name="file" type="file" accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" required>
<button type="submit">Upload</button></form>
<p>Templates with every column: ${q.kinds.types.map((t) => html`${t} (<a href="/dashboard/imports/templates/${t}?format=xlsx">Excel</a>, <a href="/dashboard/imports/templates/${t}">CSV</a>) `)}. The Excel templates keep ID numbers and codes as typed and list every code on their second sheet.</p>`,
    )}
${when(running, () => html`<p class="muted" role="status">An import is running; this page refreshes itself.</p>`)}
${
  recent.length
    ? html`<div class="table" tabindex="0"><table><thead><tr><th scope="col">File</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Rows</th><th scope="col">Valid</th><th scope="col">With errors</th><th scope="col">Started</th></tr></thead><tbody>
${recent.map(
  (i) =>
    html`<tr><td><a href="/dashboard/imports/${i.id}">${i.fileName}</a></td><td>${i.type}</td><td>${STATUS_WORDS[i.status] ?? i.status}</td><td>${i.totalRows}</td><td>${i.validRows}</td><td>${i.rowsWithErrors}</td><td>${i.createdAt.slice(0, 16).replace('T', ' ')}</td></tr>`,
)}
</tbody></table></div>`
    : html`<p>No imports yet.</p>`
}`,
  });
}

import { Readable } from 'node:stream';
import { IMPORT_KINDS, unknownHeadersOf, type ImportView, type SessionContext } from '@fundi/application';
import {
  IMPORT_MAX_BYTES,
  IMPORT_TYPES,
  isDomainError,
  type CsvImportFormat,
  type ImportFormat,
  type ImportMessages,
  type RowError,
} from '@fundi/domain';
import type { DashboardDeps, PageRoutes } from '../dashboard-deps.js';
import { html, raw, when } from '../html.js';
import { csrf, page } from '../layout.js';
import { field, requireScope } from '../web.js';
import { describe } from './api-keys.js';
import { importProgress } from '../forms/import-progress.js';
import { XLSX_TYPE } from '../../schemas/import-schemas.js';

const RUNNING = new Set(['validating', 'importing']);
const rows = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const ERRORS_SHOWN = 50;
const ENCODING_WORDS: Record<CsvImportFormat['encoding'], string> = {
  'utf-8': 'UTF-8',
  'utf-8-bom': 'UTF-8 (with BOM)',
  'utf-16le': 'UTF-16',
  'utf-16be': 'UTF-16 (big-endian)',
  'windows-1252': 'Windows-1252 (Excel on Windows)',
};
const DELIMITER_WORDS: Record<CsvImportFormat['delimiter'], string> = {
  ',': 'commas',
  ';': 'semicolons',
  '\t': 'tabs',
};
const formatText = (f: ImportFormat) =>
  f.file === 'xlsx'
    ? `Excel workbook, sheet "${f.sheet}"`
    : `${ENCODING_WORDS[f.encoding]}, cells separated by ${DELIMITER_WORDS[f.delimiter]}`;
const learnerText = (e: RowError) =>
  e.learner ? [e.learner.name, e.learner.idNumber && `(${e.learner.idNumber})`].filter(Boolean).join(' ') : '';

/** "Confirm will send 12 emails and 3 WhatsApp messages (welcome: 12 emails; ...)", or that it sends none. */
const messagesText = (m: ImportMessages) => {
  const what = (email: number, whatsapp: number) =>
    [email && rows(email, 'email'), whatsapp && rows(whatsapp, 'WhatsApp message')].filter(Boolean).join(' and ');
  if (!m.email && !m.whatsapp) return 'Confirm will send no messages.';
  const per = m.templates.map((t) => `${t.template.replace(/_/g, ' ')}: ${what(t.email, t.whatsapp)}`).join('; ');
  return `Confirm will send ${what(m.email, m.whatsapp)} (${per}).`;
};

const STATUS_WORDS: Record<string, string> = {
  validating: 'Checking the file',
  validated: 'Checked: ready to import',
  importing: 'Importing',
  completed: 'Imported',
  failed: 'Failed',
};

/**
 * Imports (docs/dashboard.md, "Pages"): upload a CSV (a dry run first by default), read the report (counts and
 * the first errors, all of them as CSV), confirm, and watch the progress; the page refreshes itself while the
 * worker runs. The same use cases as the API's `/imports`.
 */
export function importPages(r: PageRoutes, d: DashboardDeps): void {
  const q = d.imports;

  const list = async (s: SessionContext, notice?: { text: string; error?: boolean }) => {
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
<label for="imp-type">What the file holds</label><select id="imp-type" name="type">${IMPORT_TYPES.map((t) => html`<option value="${t}">${t}</option>`)}</select>
<div class="check"><input type="checkbox" id="imp-dry" name="dryRun" value="1" checked> <label for="imp-dry">Check the file first and show me the report (nothing is written until I confirm)</label></div>
<div class="check"><input type="checkbox" id="imp-quiet" name="notifyNone" value="1"> <label for="imp-quiet">This is history: message nobody (no welcomes, no results; webhooks and HR still get the records)</label></div>
<label for="imp-sheet">Sheet of an Excel workbook to import (leave empty for the first sheet)</label><input id="imp-sheet" name="sheet" maxlength="31">
<label for="imp-file">Excel workbook (.xlsx) or CSV file (a header row; CSV separated by commas, semicolons or tabs; at most 100,000 rows)</label><input id="imp-file" name="file" type="file" accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" required>
<button type="submit">Upload</button></form>
<p>Templates with every column: ${IMPORT_TYPES.map((t) => html`${t} (<a href="/dashboard/imports/templates/${t}?format=xlsx">Excel</a>, <a href="/dashboard/imports/templates/${t}">CSV</a>) `)}. The Excel templates keep ID numbers and codes as typed and list every code on their second sheet.</p>`,
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
  };

  const one = async (s: SessionContext, id: string, notice?: { text: string; error?: boolean }) => {
    requireScope(s, 'imports:read');
    const i = await q.getImport.execute(s.actor, id, { offset: 0, limit: ERRORS_SHOWN });
    const running = RUNNING.has(i.status);
    return page({
      title: `Import ${i.fileName}`,
      current: '/dashboard/imports',
      session: s,
      notice,
      head: running ? raw('<meta http-equiv="refresh" content="2">') : undefined,
      body: html`<p><a href="/dashboard/imports">Back to imports</a></p>
<div class="table" tabindex="0"><table><tbody>
<tr><th scope="row">Type</th><td>${i.type}</td></tr>
<tr><th scope="row">Status</th><td>${STATUS_WORDS[i.status] ?? i.status}</td></tr>
<tr><th scope="row">Messages</th><td>${i.notify === 'none' ? 'None: imported as history' : 'As for new records (welcomes, results)'}</td></tr>
${when(i.format !== null, () => html`<tr><th scope="row">Read as</th><td>${formatText(i.format!)}</td></tr>`)}
<tr><th scope="row">Rows in the file</th><td>${i.totalRows}</td></tr>
<tr><th scope="row">Valid rows</th><td>${i.validRows}</td></tr>
<tr><th scope="row">Rows with errors</th><td>${i.rowsWithErrors}</td></tr>
<tr><th scope="row">Errors</th><td>${i.errorCount}</td></tr>
<tr><th scope="row">Written</th><td>${i.importedRows}</td></tr>
</tbody></table></div>
${when(running, () => importProgress(i))}
${when(
  i.status === 'validated' && i.validRows === 0,
  () =>
    html`<p class="card" role="status">No row of this file can be imported: correct the rows below and upload the file again.</p>`,
)}
${when(
  i.status === 'validated' && i.validRows > 0 && s.actor.scopes.includes('imports:write'),
  () => html`<form class="card" method="post" action="/dashboard/imports/${i.id}/confirm">${csrf(s)}
<p>${rows(i.validRows, 'valid row')} will be written${i.rowsWithErrors ? html`; ${rows(i.rowsWithErrors, 'row')} with errors ${i.rowsWithErrors === 1 ? 'is' : 'are'} left out` : ''}.</p>
${when(i.messages !== null, () => html`<p id="imp-messages">${messagesText(i.messages!)}</p>`)}
<button type="submit">Confirm the import</button></form>`,
)}
${when((i.status === 'validated' || i.status === 'failed') && s.actor.scopes.includes('imports:write'), () =>
  mappingForm(s, i),
)}
${errorsTable(i)}`,
    });
  };

  /**
   * After a file with headers the type does not know: each unknown header with a choice of the type's columns (the
   * nearest preselected), saved for the tenant like `options.columns`, and the file checked again with it.
   */
  const mappingForm = (s: SessionContext, i: ImportView & { errors: RowError[] }) => {
    const unknown = unknownHeadersOf(i.errors);
    if (!unknown.length) return html``;
    const columns = IMPORT_KINDS[i.type]().columns.map((c) => c.name);
    return html`<form class="card" method="post" action="/dashboard/imports/${i.id}/columns">${csrf(s)}
<h2>Columns this file names differently</h2>
<p>Choose the column each header holds. The choice is saved for your next ${i.type} files, and this file is checked again with it.</p>
${unknown.map(
  (u, k) => html`<input type="hidden" name="header.${k}" value="${u.header}">
<label for="imp-map-${k}">${u.header}</label><select id="imp-map-${k}" name="column.${k}"><option value="">Ignore this column</option>${columns.map(
    (c) => html`<option value="${c}"${u.suggestions[0] === c ? raw(' selected') : ''}>${c}</option>`,
  )}</select>`,
)}
<button type="submit">Save the columns and check the file again</button></form>`;
  };

  const errorsTable = (i: ImportView & { errors: RowError[] }) =>
    i.errorCount === 0
      ? html``
      : html`<h2>Errors</h2><p>${i.errorCount > i.errors.length ? `The first ${i.errors.length} of ${i.errorCount}. ` : ''}<a href="/dashboard/imports/${i.id}/errors.csv">Download every error as CSV</a></p>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Row</th><th scope="col">Learner</th><th scope="col">Column</th><th scope="col">Value</th><th scope="col">Problem</th></tr></thead><tbody>
${i.errors.map((e) => html`<tr><td>${e.row}</td><td>${learnerText(e)}</td><td>${e.field}</td><td>${e.value ?? ''}</td><td>${e.error}</td></tr>`)}
</tbody></table></div>`;

  r.get('/dashboard/imports', async (_ctx, s) => list(s));
  r.get('/dashboard/imports/:id', async (ctx, s) => one(s, ctx.params.id!));

  r.get('/dashboard/imports/templates/:type', async (ctx, s) => {
    requireScope(s, 'imports:read');
    const type = ctx.params.type as (typeof IMPORT_TYPES)[number];
    if (!IMPORT_TYPES.includes(type)) return list(s, { text: `No template for ${ctx.params.type}`, error: true });
    if (ctx.query.format === 'xlsx') {
      const body = await q.importTemplateXlsx.execute(type);
      return { file: { contentType: XLSX_TYPE, filename: `${type}-template.xlsx`, open: () => Readable.from([body]) } };
    }
    const text = q.importTemplate.execute(type);
    return {
      file: {
        contentType: 'text/csv; charset=utf-8',
        filename: `${type}-template.csv`,
        open: () => Readable.from([Buffer.from(text)]),
      },
    };
  });

  r.get('/dashboard/imports/:id/errors.csv', async (ctx, s) => {
    requireScope(s, 'imports:read');
    const f = await q.importErrorsCsv.execute(s.actor, ctx.params.id!);
    return { file: { contentType: 'text/csv; charset=utf-8', filename: f.fileName, open: () => f.open() } };
  });

  r.upload('/dashboard/imports', { field: 'file', maxBytes: IMPORT_MAX_BYTES }, async (_ctx, s, fields, file) => {
    requireScope(s, 'imports:write');
    try {
      const started = await d.imports.startImport.execute(
        s.actor,
        {
          type: fields.type,
          options: JSON.stringify({
            dryRun: fields.dryRun === '1',
            notify: fields.notifyNone === '1' ? 'none' : 'all',
            ...(fields.sheet?.trim() ? { sheet: fields.sheet.trim() } : {}),
          }),
        },
        file,
      );
      return { redirect: `/dashboard/imports/${started.id}` };
    } catch (e) {
      file.stream.resume();
      if (isDomainError(e) && e.kind === 'invalid') return list(s, { text: describe(e), error: true });
      throw e;
    }
  });

  r.post('/dashboard/imports/:id/columns', async (ctx, s, form) => {
    requireScope(s, 'imports:write');
    const id = ctx.params.id!;
    const columns: Record<string, string> = {};
    for (let k = 0; form.has(`header.${k}`) && k < 200; k++) {
      const header = form.get(`header.${k}`) ?? '';
      const column = field(form, `column.${k}`);
      if (header && column) columns[header] = column;
    }
    if (!Object.keys(columns).length)
      return one(s, id, { text: 'Choose a column for at least one header, or upload a corrected file', error: true });
    try {
      const again = await d.imports.remapImport.execute(s.actor, id, columns);
      return { redirect: `/dashboard/imports/${again.id}` };
    } catch (e) {
      if (isDomainError(e) && (e.kind === 'conflict' || e.kind === 'invalid'))
        return one(s, id, { text: describe(e), error: true });
      throw e;
    }
  });

  r.post('/dashboard/imports/:id/confirm', async (ctx, s) => {
    requireScope(s, 'imports:write');
    const id = ctx.params.id!;
    try {
      await q.confirmImport.execute(s.actor, id);
    } catch (e) {
      if (isDomainError(e) && (e.kind === 'conflict' || e.kind === 'invalid'))
        return one(s, id, { text: describe(e), error: true });
      throw e;
    }
    return { redirect: `/dashboard/imports/${id}` };
  });
}

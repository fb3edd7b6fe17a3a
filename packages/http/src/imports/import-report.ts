import type { SessionContext } from '@fundi/application/staff';
import { unknownHeadersOf, type ImportKinds, type ImportView } from '@fundi/application/imports';
import type { CsvImportFormat, ImportFormat, ImportMessages, RowError } from '@fundi/domain/imports';
import type { DashboardDeps } from '../dashboard/dashboard-deps.js';
import { importProgress } from './import-progress.js';
import { html, raw, when } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { requireScope } from '../dashboard/web.js';

export const RUNNING = new Set(['validating', 'importing']);
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

export const STATUS_WORDS: Record<string, string> = {
  validating: 'Checking the file',
  validated: 'Checked: ready to import',
  importing: 'Importing',
  completed: 'Imported',
  failed: 'Failed',
};

/**
 * One import's page: its counts, how its file was read, its progress while it runs, the confirm form with the
 * messages it would send, the form for headers the type does not know, and the first errors.
 */
export async function importReport(
  d: DashboardDeps,
  s: SessionContext,
  id: string,
  notice?: { text: string; error?: boolean },
) {
  requireScope(s, 'imports:read');
  const i = await d.imports.getImport.execute(s.actor, id, { offset: 0, limit: ERRORS_SHOWN });
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
  mappingForm(s, i, d.imports.kinds),
)}
${errorsTable(i)}`,
  });
}

/**
 * After a file with headers the type does not know: each unknown header with a choice of the type's columns (the
 * nearest preselected), saved for the tenant like `options.columns`, and the file checked again with it.
 */
function mappingForm(s: SessionContext, i: ImportView & { errors: RowError[] }, kinds: ImportKinds) {
  const unknown = unknownHeadersOf(i.errors);
  if (!unknown.length) return html``;
  const columns = kinds.make(i.type).columns.map((c) => c.name);
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
}

/** The first errors, and the link to all of them as CSV. */
const errorsTable = (i: ImportView & { errors: RowError[] }) =>
  i.errorCount === 0
    ? html``
    : html`<h2>Errors</h2><p>${i.errorCount > i.errors.length ? `The first ${i.errors.length} of ${i.errorCount}. ` : ''}<a href="/dashboard/imports/${i.id}/errors.csv">Download every error as CSV</a></p>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Row</th><th scope="col">Learner</th><th scope="col">Column</th><th scope="col">Value</th><th scope="col">Problem</th></tr></thead><tbody>
${i.errors.map((e) => html`<tr><td>${e.row}</td><td>${learnerText(e)}</td><td>${e.field}</td><td>${e.value ?? ''}</td><td>${e.error}</td></tr>`)}
</tbody></table></div>`;

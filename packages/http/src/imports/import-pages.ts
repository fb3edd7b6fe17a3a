import { Readable } from 'node:stream';
import { isDomainError } from '@fundi/domain';
import { IMPORT_MAX_BYTES } from '@fundi/domain/imports';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { field, requireScope } from '../dashboard/web.js';
import { describe } from '../tenants/api-key-pages.js';
import { XLSX_TYPE } from './import-schemas.js';
import { importList } from './import-list.js';
import { importReport } from './import-report.js';

/**
 * Imports (docs/dashboard.md, "Pages"): upload a CSV (a dry run first by default), read the report (counts and
 * the first errors, all of them as CSV), confirm, and watch the progress; the page refreshes itself while the
 * worker runs. The same use cases as the API's `/imports`.
 */
export function importPages(r: PageRoutes, d: DashboardDeps): void {
  const q = d.imports;

  r.get('/dashboard/imports', async (_ctx, s) => importList(d, s));
  r.get('/dashboard/imports/:id', async (ctx, s) => importReport(d, s, ctx.params.id!));

  r.get('/dashboard/imports/templates/:type', async (ctx, s) => {
    requireScope(s, 'imports:read');
    const type = ctx.params.type ?? '';
    if (!q.kinds.types.includes(type))
      return importList(d, s, { text: `No template for ${ctx.params.type}`, error: true });
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
      if (isDomainError(e) && e.kind === 'invalid') return importList(d, s, { text: describe(e), error: true });
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
      return importReport(d, s, id, {
        text: 'Choose a column for at least one header, or upload a corrected file',
        error: true,
      });
    try {
      const again = await d.imports.remapImport.execute(s.actor, id, columns);
      return { redirect: `/dashboard/imports/${again.id}` };
    } catch (e) {
      if (isDomainError(e) && (e.kind === 'conflict' || e.kind === 'invalid'))
        return importReport(d, s, id, { text: describe(e), error: true });
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
        return importReport(d, s, id, { text: describe(e), error: true });
      throw e;
    }
    return { redirect: `/dashboard/imports/${id}` };
  });
}

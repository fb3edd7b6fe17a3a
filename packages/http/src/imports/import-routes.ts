import type { ImportUseCases } from '@fundi/application/imports';
import { IMPORT_MAX_BYTES } from '@fundi/domain/imports';
import { Readable } from 'node:stream';
import { IdParams } from '../schemas/common.js';
import { ImportGetQuery, ImportTemplateQuery, importSchemas, XLSX_TYPE } from './import-schemas.js';
import { route, type RouteDef } from '../routes/route.js';

const tag = 'Imports';
const see = 'See docs/api.md, "Imports" for the columns of each type, row numbers and limits.';

/** Bulk CSV imports (docs/api.md, "Imports"): upload and dry run, confirm once, errors, templates. */
export function importRoutes(u: ImportUseCases): RouteDef[] {
  const { ImportListQuery, ImportOut, ImportSummaryOut, ImportUploadFields } = importSchemas(u.kinds.types);
  const q = u;
  return [
    route({
      operationId: 'startImport',
      summary: 'Upload a CSV to import (validated in the background)',
      description: `Text fields \`type\` and \`options\` and the \`file\` part, in any order. The file: CSV, UTF-8, at most 50 MB and 100,000 data rows, and per row at most 200 cells and 65,536 bytes; more is 413 / invalid input naming the line, and nothing is kept. The answer is the import, \`validating\`; poll it. ${see}`,
      tag,
      method: 'post',
      path: '/imports',
      scope: 'imports:write',
      body: ImportUploadFields,
      upload: { kind: 'multipart', field: 'file', maxBytes: IMPORT_MAX_BYTES },
      actors: true,
      success: { status: 202, schema: ImportOut, description: 'The import, validating' },
      handle: ({ actor, body, file }) =>
        u.startImport.execute(actor, body, { stream: file!.stream, filename: file!.filename }),
    }),
    route({
      operationId: 'listImports',
      summary: 'List imports',
      tag,
      method: 'get',
      path: '/imports',
      scope: 'imports:read',
      query: ImportListQuery,
      actors: true,
      list: { item: ImportSummaryOut },
      success: { status: 200, description: 'A page of imports, oldest first' },
      handle: ({ actor, query, page }) => q.listImports.execute(actor, query, page),
    }),
    // One route per type: a `{type}` parameter beside `{id}` makes the paths ambiguous to OpenAPI tools.
    ...u.kinds.types.map((type) =>
      route({
        operationId: `getImportTemplate${type[0]!.toUpperCase()}${type.slice(1)}`,
        summary: `A template for ${type}: the header row and one example row, as CSV or as an Excel workbook`,
        description:
          '`?format=xlsx`: an .xlsx workbook whose columns are formatted as Text (dates as dates), so Excel keeps ID numbers, phone numbers and codes as typed, with a second sheet `Codes` listing every code of the coded columns with its meaning. Default `csv`.',
        tag,
        method: 'get',
        path: `/imports/templates/${type}`,
        scope: 'imports:read',
        query: ImportTemplateQuery,
        success: { status: 200, file: { contentTypes: ['text/csv', XLSX_TYPE] }, description: 'The template' },
        handle: async ({ query }) => {
          const xlsx = query.format === 'xlsx';
          const body = xlsx ? await q.importTemplateXlsx.execute(type) : Buffer.from(q.importTemplate.execute(type));
          return {
            contentType: xlsx ? XLSX_TYPE : 'text/csv; charset=utf-8',
            size: body.length,
            filename: `${type}-template.${xlsx ? 'xlsx' : 'csv'}`,
            open: () => Readable.from([body]),
          };
        },
      }),
    ),
    route({
      operationId: 'getImport',
      summary: 'Get an import with a page of its errors',
      description:
        "Errors are paged by `errorsLimit` and, in Form A, `errorsCursor` (the previous page's `errorsPage.nextCursor`, signed and bound to this import) or, in Form B, `errorsOffset`; both forms accept both, not together.",
      tag,
      method: 'get',
      path: '/imports/{id}',
      scope: 'imports:read',
      params: IdParams,
      query: ImportGetQuery,
      actors: true,
      success: { status: 200, schema: ImportOut, description: 'The import' },
      errors: [404],
      handle: ({ actor, params, query }) =>
        q.getImport.execute(actor, params.id, {
          limit: query.errorsLimit ?? 100,
          ...(query.errorsOffset !== undefined ? { offset: query.errorsOffset } : {}),
          ...(query.errorsCursor !== undefined ? { cursor: query.errorsCursor } : {}),
        }),
    }),
    route({
      operationId: 'getImportErrorsCsv',
      summary: 'Every error of an import as CSV (row, field, error)',
      tag,
      method: 'get',
      path: '/imports/{id}/errors.csv',
      scope: 'imports:read',
      params: IdParams,
      success: { status: 200, file: { contentTypes: ['text/csv'] }, description: 'The errors' },
      errors: [404],
      handle: async ({ actor, params }) => {
        const f = await q.importErrorsCsv.execute(actor, params.id);
        return { contentType: 'text/csv; charset=utf-8', filename: f.fileName, open: () => f.open() };
      },
    }),
    route({
      operationId: 'confirmImport',
      summary: 'Confirm a validated import: write its valid rows (in the background)',
      description:
        'Only from `validated`, and once: a second confirm, or one on a `failed`, `importing` or `completed` import, is 409 and writes nothing.',
      tag,
      method: 'post',
      path: '/imports/{id}/confirm',
      scope: 'imports:write',
      params: IdParams,
      actors: true,
      success: { status: 202, schema: ImportSummaryOut, description: 'The import, importing' },
      errors: [404, 409],
      handle: ({ actor, params }) => q.confirmImport.execute(actor, params.id),
    }),
  ];
}

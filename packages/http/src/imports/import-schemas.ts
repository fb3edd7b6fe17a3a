import { IMPORT_DELIMITERS, IMPORT_ENCODINGS, IMPORT_NOTIFY, IMPORT_STATUSES } from '@fundi/domain/imports';
import { Timestamp, z, ActorOut, ActorOrNull } from '../schemas/common.js';

export const ImportStatus = z.enum(IMPORT_STATUSES);

export const RowErrorOut = z
  .object({
    row: z.number().int().openapi({ description: 'The row a spreadsheet shows: the header is row 1' }),
    field: z.string().openapi({ description: 'The CSV column, `row` for the row as a whole, `file` for the file' }),
    error: z.string(),
    value: z
      .string()
      .optional()
      .openapi({ description: 'The cell as the file gives it (at most 100 characters), where the error is about one' }),
    learner: z
      .object({ name: z.string().nullable(), idNumber: z.string().nullable() })
      .strict()
      .optional()
      .openapi({ description: 'The learner the row names (its name and ID number cells), where the row has them' }),
  })
  .strict()
  .openapi('ImportRowError');

/**
 * The import, its upload and the list's query over the offered kinds' types (`ImportKinds.types`, in the capability
 * list's order).
 */
export function importSchemas(types: readonly string[]) {
  const [first, ...others] = types;
  if (first === undefined) throw new Error('No capability offers an import kind');
  const ImportType = z.enum([first, ...others]);
  const fields = {
    id: z.string(),
    type: ImportType,
    status: ImportStatus,
    dryRun: z.boolean().openapi({ description: 'false: the import confirms itself once validation passes' }),
    notify: z.enum(IMPORT_NOTIFY).openapi({
      description:
        '`all`: the rows message learners as the API does (welcome, results); `none`: history, nobody is messaged. Webhooks and HR outbound get the events either way, marked `source: "import"`',
    }),
    fileName: z.string(),
    format: z
      .discriminatedUnion('file', [
        z
          .object({ file: z.literal('csv'), encoding: z.enum(IMPORT_ENCODINGS), delimiter: z.enum(IMPORT_DELIMITERS) })
          .strict(),
        z
          .object({
            file: z.literal('xlsx'),
            sheet: z.string().openapi({ description: 'The sheet whose rows were read' }),
          })
          .strict(),
      ])
      .nullable()
      .openapi({
        description:
          'How the file was read, as its dry run found it: a CSV file with its text encoding and cell separator (`,`, `;` or a tab), or an Excel workbook with the sheet read; null until the header row was read',
      }),
    messages: z
      .object({
        email: z.number().int(),
        whatsapp: z.number().int(),
        templates: z.array(
          z.object({ template: z.string(), email: z.number().int(), whatsapp: z.number().int() }).strict(),
        ),
      })
      .strict()
      .nullable()
      .openapi({
        description:
          'The messages a confirm would send to learners (emails and WhatsApp messages, in all and per template), as the dry run counted them with `notify`, the trigger settings, opt-outs and consents; null until the dry run has run',
      }),
    totalRows: z.number().int().openapi({ description: 'Data rows in the file (the header not counted)' }),
    validRows: z
      .number()
      .int()
      .openapi({ description: 'Rows without errors at the last check; after confirm, rows written' }),
    rowsWithErrors: z
      .number()
      .int()
      .openapi({ description: 'Data rows with at least one error at the last check (a row counts once)' }),
    importedRows: z.number().int().openapi({ description: 'Rows written by confirm' }),
    errorCount: z.number().int().openapi({ description: 'Errors found (a row may have several)' }),
    progress: z.object({ processed: z.number().int(), total: z.number().int() }).strict(),
    createdAt: Timestamp,
    completedAt: Timestamp.nullable(),
    createdBy: ActorOut.openapi({ description: 'Who uploaded the file' }),
    confirmedBy: ActorOrNull,
  };

  const ImportSummaryOut = z.object(fields).strict().openapi('ImportSummary');

  const ImportOut = z
    .object({
      ...fields,
      errors: z.array(RowErrorOut).openapi({ description: 'One page of the errors, in row order' }),
      errorsPage: z
        .object({
          offset: z.number().int(),
          limit: z.number().int(),
          total: z.number().int(),
          hasMore: z.boolean(),
          nextCursor: z.string().nullable().openapi({
            description:
              'Signed position of the next page, for `?errorsCursor` (bound to the tenant and this import); null on the last page',
          }),
        })
        .strict(),
    })
    .strict()
    .openapi('Import');

  const ImportUploadFields = z
    .object({
      type: ImportType,
      options: z.string().max(20_000).optional().openapi({
        description:
          'JSON text `{"dryRun": true|false, "notify": "all"|"none", "columns": {"<header>": "<column>"|null}, "sheet": "<name>"}`; default `{"dryRun": true, "notify": "all"}`. `columns` maps header names to columns and is saved for the tenant\'s next file of the type (null forgets a saved name); `sheet` names the sheet of an .xlsx workbook to read (default its first visible sheet)',
      }),
    })
    .strict();
  const ImportListQuery = z.object({ status: ImportStatus.optional(), type: ImportType.optional() }).strict();
  return { ImportSummaryOut, ImportOut, ImportUploadFields, ImportListQuery };
}

const int = (max: number, dflt: number) =>
  z.coerce
    .number()
    .int()
    .min(0)
    .max(max)
    .optional()
    .openapi({ type: 'integer', minimum: 0, maximum: max, default: dflt });

export const ImportGetQuery = z
  .object({
    errorsLimit: int(1000, 100),
    errorsOffset: int(Number.MAX_SAFE_INTEGER, 0).openapi({
      description: 'Form B paging of the errors: position of the first error of the page',
    }),
    errorsCursor: z.string().max(400).optional().openapi({
      description:
        'Form A paging of the errors: `errorsPage.nextCursor` of the previous page (not with `errorsOffset`); a tampered cursor or one of another import is invalid input',
    }),
  })
  .strict();

/** The media type of an Excel workbook (.xlsx). */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const ImportTemplateQuery = z
  .object({
    format: z
      .enum(['csv', 'xlsx'])
      .optional()
      .openapi({ description: 'The template as CSV (the default) or as an Excel workbook', default: 'csv' }),
  })
  .strict();

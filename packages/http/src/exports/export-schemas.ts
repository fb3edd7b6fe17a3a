import type { ExportTypeDef } from '@fundi/application/exports';
import { REGULATOR_SETTING_CODES, REGULATOR_SETTING_FIELDS, type RegulatorSettings } from '@fundi/domain/exports';
import { IsoDateString, Timestamp, z, downloadGrant } from '../schemas/common.js';

/** `a, b or c`. */
const either = (parts: readonly string[]) =>
  parts.length > 1 ? `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}` : (parts[0] ?? '');

/** What `filters.status` selects, by the types it selects of (`Enrolment status (learners, ...)`), in their order. */
function statusDescribed(types: readonly ExportTypeDef[]): string {
  const groups = new Map<string, Set<string>>();
  for (const t of types)
    if (t.status) {
      const names = groups.get(t.status.described) ?? new Set<string>();
      groups.set(t.status.described, names.add(t.describedAs ?? t.name));
    }
  return either([...groups].map(([described, names]) => `${described} (${[...names].join(', ')})`));
}

/** The names a request may give as `type`, in the capability list's order (a non-empty list, as `z.enum` takes). */
export function exportTypeNames(types: readonly ExportTypeDef[]): [string, ...string[]] {
  const [first, ...rest] = types.filter((t) => !t.fullOnly).map((t) => t.name);
  if (first === undefined) throw new Error('No capability offers an export type');
  return [first, ...rest];
}

/** The export request, the export and the filters over the offered types (docs/api.md, "Exports"). */
export function exportSchemas(types: readonly ExportTypeDef[]) {
  const Type = typeEnum(types);
  // The CSV types of the full export; the exports' own files (ZIPs and regulator files) after them.
  const csv = types.filter((t) => t.csv && t.inFull && !t.fullOnly).map((t) => t.name);
  const Filters = filtersOf(statusDescribed(types));
  const ExportIn = z
    .object({
      type: Type,
      format: z
        .enum(['csv', 'zip', 'txt'])
        .optional()
        .openapi({ description: `csv for ${csv.join(', ')}; zip for full, atr and wsp; txt for qcto01/02` }),
      filters: Filters.optional(),
      fields: z
        .array(z.string().max(60))
        .max(100)
        .optional()
        .openapi({ description: 'CSV columns in order (docs/api.md, "Exports"); default: every cheap column' }),
    })
    .strict()
    .openapi('ExportRequest');
  const ExportOut = exportOut(Type, Filters);
  return { ExportIn, ExportOut, RegulatorRunOut: z.union([ExportOut, DryRunOut]) };
}

const filtersOf = (status: string) =>
  z
    .object({
      programmeId: z.string().max(100).optional().openapi({ description: 'Only this programme (its id)' }),
      status: z.string().max(40).optional().openapi({ description: status }),
      from: IsoDateString.optional().openapi({
        description: 'Inclusive start of the period (see docs/api.md, "Exports")',
      }),
      to: IsoDateString.optional().openapi({ description: 'Inclusive end of the period' }),
      learnerIds: z
        .array(z.string().max(100))
        .max(1000)
        .optional()
        .openapi({ description: 'Only these learners (a learners export of a selection, 1 to 1,000)' }),
    })
    .strict();

export const RegulatorRunIn = z
  .object({
    dryRun: z.boolean().optional().openapi({ description: 'true: answer only the readiness report (200)' }),
    programmeId: z.string().max(100).optional(),
    from: IsoDateString.optional().openapi({ description: 'Enrolments starting on or after' }),
    to: IsoDateString.optional().openapi({ description: 'Enrolments starting on or before' }),
  })
  .strict()
  .openapi('RegulatorFileRequest');

const Finding = z
  .object({
    learnerId: z.string(),
    idNumber: z.string().nullable(),
    alternateId: z.string().nullable(),
    field: z.string().openapi({ description: 'Learner field, or `settings.<name>` for a regulator setting' }),
    reason: z.enum([
      'missing',
      'missing_setting',
      'invalid_code',
      'invalid_characters',
      'gender_mismatch',
      'required_with_disability',
    ]),
    message: z.string(),
  })
  .openapi('ReadinessFinding');

const Readiness = z
  .object({
    ready: z.number().int().openapi({ description: 'Learners written (or that would be)' }),
    leftOut: z.number().int().openapi({ description: 'Learners left out because of findings' }),
    records: z.number().int(),
    findings: z.array(Finding),
    omittedFindings: z.number().int().openapi({ description: 'Findings beyond the first 10,000, not listed' }),
  })
  .openapi('ReadinessReport');

const typeEnum = (types: readonly ExportTypeDef[]) => z.enum(exportTypeNames(types));

const exportOut = (Type: ReturnType<typeof typeEnum>, Filters: ReturnType<typeof filtersOf>) =>
  z
    .object({
      id: z.string().openapi({ example: 'exp_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
      type: Type,
      format: z.enum(['csv', 'zip', 'txt']),
      status: z.enum(['queued', 'processing', 'ready', 'failed']),
      filters: Filters,
      fields: z.array(z.string()).nullable(),
      rowCount: z.number().int().nullable(),
      processedRows: z.number().int().nullable().openapi({
        description: 'Rows written so far while processing (recorded about every second); null before it starts',
      }),
      totalRows: z.number().int().nullable().openapi({
        description: 'Rows the file will hold, counted when processing starts; null where not known beforehand',
      }),
      fileName: z.string().nullable(),
      size: z.number().int().nullable().openapi({ description: 'Bytes of the file as downloaded' }),
      createdAt: Timestamp,
      completedAt: Timestamp.nullable(),
      expiresAt: Timestamp.nullable().openapi({ description: 'When the file is purged' }),
      purgedAt: Timestamp.nullable().openapi({ description: 'When the file was purged; the record stays' }),
      purgeReason: z.enum(['expired', 'learner_erased']).nullable().openapi({
        description:
          'Why the file was purged: past its retention, or made before a learner was erased (it may hold them)',
      }),
      error: z.string().nullable(),
      readiness: Readiness.nullable().openapi({ description: 'Regulator files: who was left out and why' }),
    })
    .openapi('Export');

export const DryRunOut = Readiness.extend({ type: z.enum(['qcto01', 'qcto02']), dryRun: z.literal(true) }).openapi(
  'ReadinessDryRun',
);

export const ExportDownloadOut = downloadGrant('ExportDownloadUrl');

const setting = (k: keyof RegulatorSettings) => {
  const codes = REGULATOR_SETTING_CODES[k];
  return z
    .string()
    .nullable()
    .openapi(codes ? { enum: [...codes, null] } : { description: 'Accreditation number, at most 20 characters' });
};
const SETTINGS = Object.fromEntries(REGULATOR_SETTING_FIELDS.map((k) => [k, setting(k)])) as Record<
  keyof RegulatorSettings,
  z.ZodNullable<z.ZodString>
>;

export const RegulatorSettingsIn = z
  .object(Object.fromEntries(Object.entries(SETTINGS).map(([k, v]) => [k, v.optional()])))
  .strict()
  .openapi('RegulatorSettingsInput', { description: 'Replaces every setting; one left out is unset' });
export const RegulatorSettingsOut = z.object(SETTINGS).openapi('RegulatorSettings');

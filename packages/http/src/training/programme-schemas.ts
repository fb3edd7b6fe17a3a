import { MODULE_KINDS, PROGRAMME_TYPES } from '@fundi/domain/training';
import { Timestamp } from '../schemas/common.js';
import { Code, z } from './training-common.js';

const ModuleIn = z
  .object({
    code: Code.openapi({ description: 'Unique within the programme', example: 'KM-01' }),
    name: z.string().max(200).openapi({ example: 'Electrical principles' }),
    kind: z.enum(MODULE_KINDS),
    credits: z.number().int().min(0).max(1000).nullable().optional(),
    requiredHours: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .nullable()
      .optional()
      .openapi({ description: 'Workplace modules only: signed logbook hours the module asks for' }),
  })
  .strict()
  .openapi('ProgrammeModuleInput');

const fields = {
  name: z.string().max(200).openapi({ example: 'Electrician skills programme' }),
  type: z.enum(PROGRAMME_TYPES),
  qualificationId: z
    .string()
    .max(50)
    .nullable()
    .optional()
    .openapi({ description: 'SAQA qualification id', example: '91761' }),
  nqfLevel: z.number().int().min(0).max(10).nullable().optional(),
  modules: z.array(ModuleIn).min(1).max(200),
};

export const ProgrammeCreate = z
  .object({ code: Code.openapi({ description: 'Unique per tenant; never changes' }), ...fields })
  .strict()
  .openapi('ProgrammeCreate');

export const ProgrammeUpdate = z
  .object({
    name: fields.name.optional(),
    type: fields.type.optional(),
    qualificationId: fields.qualificationId,
    nqfLevel: fields.nqfLevel,
    modules: fields.modules.optional().openapi({
      description: 'Replaces the module list. Modules may be added or renamed; removing one with assessments is 409.',
    }),
  })
  .strict()
  .openapi('ProgrammeUpdate');

export const ModuleOut = z
  .object({
    code: z.string(),
    name: z.string(),
    kind: z.enum(MODULE_KINDS),
    credits: z.number().int().nullable(),
    requiredHours: z.number().int().optional(),
  })
  .openapi('ProgrammeModule');

export const ProgrammeOut = z
  .object({
    id: z.string().openapi({ example: 'prg_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
    code: z.string(),
    name: z.string(),
    type: z.enum(PROGRAMME_TYPES),
    qualificationId: z.string().nullable(),
    nqfLevel: z.number().int().nullable(),
    modules: z.array(ModuleOut),
    status: z.enum(['active', 'retired']),
    retiredAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Programme');

export const ProgrammeListQuery = z
  .object({
    status: z.enum(['active', 'retired']).optional(),
    type: z.enum(PROGRAMME_TYPES).optional(),
  })
  .strict();

export const ProgrammeParams = z.object({
  id: z.string().min(1).max(64).openapi({
    description: 'Programme id; the programme code is accepted too when no id matches',
    example: 'prg_01jd2x9k3m4n5p6q7r8s9t0v1w',
  }),
});

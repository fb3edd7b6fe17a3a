import { isRealDate } from '@fundi/domain';
import { IsoDateString, z } from '../schemas/common.js';

/** A calendar date `YYYY-MM-DD` that exists (2026-02-30 is invalid input, never a 500). */
export const RealDate = IsoDateString.refine(
  (v) => isRealDate(Number(v.slice(0, 4)), Number(v.slice(5, 7)), Number(v.slice(8, 10))),
  'must be a real date',
).openapi({ format: 'date', example: '2026-03-01' });

export const Code = z.string().min(1).max(50).openapi({ example: 'SP-ELEC-01' });
export const ResourceId = (prefix: string, example: string) =>
  z
    .string()
    .min(1)
    .max(64)
    .openapi({ description: `${prefix} id`, example });
export { z };

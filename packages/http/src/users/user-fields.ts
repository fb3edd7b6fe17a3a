import type { StaffField } from '@fundi/application/staff';
import type { z } from '../schemas/common.js';

declare module '@fundi/application/staff' {
  /** A field's schemas in the `/users` API, each with its description (docs/api.md, "Users"). */
  interface StaffFieldSchemas {
    /** Its property of `UserCreate` (optional: the field's initial value when absent). */
    in: z.ZodType;
    /** Its property of `UserUpdate`. */
    patch: z.ZodType;
    /** Its property of `User`. */
    out: z.ZodType;
  }
}

/** The properties the fields other capabilities add to a staff user (`staffFields`) give one of the user schemas. */
export function fieldShape(fields: readonly StaffField[], which: 'in' | 'patch' | 'out'): Record<string, z.ZodType> {
  return Object.fromEntries(fields.map((f) => [f.name, f.schemas[which]]));
}

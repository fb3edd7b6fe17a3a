import type { Role } from '@fundi/domain';
import type { StaffCredentialSnapshot } from '@fundi/domain/staff';
import type { FieldValues, StaffField } from './staff-fields.js';

/** Internal events of the staff directory (no webhook event types); the user invitation reacts to `user.invited`. */
export const USER_INVITED_EVENT = 'user.invited';

/** A staff user as the `/users` API shows it, with the fields other capabilities add (`staffFields`) by name. */
export interface UserView {
  id: string;
  name: string;
  email: string;
  mobile: string | null;
  role: Role;
  status: 'active' | 'disabled';
  hasPassword: boolean;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

/** A staff user as the API shows them: their own fields, then each added field's view of its value. */
export const userView = (
  u: StaffCredentialSnapshot,
  fields: readonly StaffField[],
  values?: FieldValues,
): UserView => ({
  id: u.id,
  name: u.name,
  email: u.email,
  mobile: u.mobile,
  role: u.role,
  status: u.status,
  ...Object.fromEntries(fields.map((f) => [f.name, f.view(values?.has(f.name) ? values.get(f.name) : f.initial())])),
  hasPassword: u.passwordHash !== null,
  createdAt: u.createdAt,
  updatedAt: u.updatedAt,
});

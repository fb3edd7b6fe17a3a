import type { Role } from '@fundi/domain';
import { STAFF_TRIGGER_KEYS, type StaffCredentialSnapshot } from '@fundi/domain/staff';

/** Internal events of the staff directory (no webhook event types); the user invitation reacts to `user.invited`. */
export const USER_INVITED_EVENT = 'user.invited';

/** A staff user as the `/users` API shows it. */
export interface UserView {
  id: string;
  name: string;
  email: string;
  mobile: string | null;
  role: Role;
  status: 'active' | 'disabled';
  /** Every staff trigger, on or off. */
  notificationPreferences: Record<string, boolean>;
  hasPassword: boolean;
  createdAt: string;
  updatedAt: string;
}

export const userView = (u: StaffCredentialSnapshot): UserView => ({
  id: u.id,
  name: u.name,
  email: u.email,
  mobile: u.mobile,
  role: u.role,
  status: u.status,
  notificationPreferences: Object.fromEntries(
    STAFF_TRIGGER_KEYS.map((k) => [k, u.notificationPreferences[k] !== false]),
  ),
  hasPassword: u.passwordHash !== null,
  createdAt: u.createdAt,
  updatedAt: u.updatedAt,
});

import type { Role } from '@fundi/domain';
import type { StaffCredentialSnapshot } from '@fundi/domain/staff';

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

/** A staff user as the API shows them: `triggers` are those they may turn off, each on or off. */
export const userView = (u: StaffCredentialSnapshot, triggers: readonly string[]): UserView => ({
  id: u.id,
  name: u.name,
  email: u.email,
  mobile: u.mobile,
  role: u.role,
  status: u.status,
  notificationPreferences: Object.fromEntries(triggers.map((k) => [k, u.notificationPreferences[k] !== false])),
  hasPassword: u.passwordHash !== null,
  createdAt: u.createdAt,
  updatedAt: u.updatedAt,
});

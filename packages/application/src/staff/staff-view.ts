import type { Role } from '@fundi/domain';
import type { StaffCredentialSnapshot } from '@fundi/domain/staff';

export interface StaffView {
  id: string;
  email: string;
  name: string;
  role: Role;
  status: 'active' | 'disabled';
  hasPassword: boolean;
  createdAt: string;
}

export const staffView = (c: StaffCredentialSnapshot): StaffView => ({
  id: c.id,
  email: c.email,
  name: c.name,
  role: c.role,
  status: c.status,
  hasPassword: c.passwordHash !== null,
  createdAt: c.createdAt,
});

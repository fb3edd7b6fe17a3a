import type { AccessPolicy } from '@fundi/domain';
import type { StaffCredentialSnapshot } from '@fundi/domain/staff';
import type { Actor } from '../common/actor.js';

/** A staff user acts with every scope of their role, exactly as an API key of that role with no narrowing. */
export const staffActor = (u: StaffCredentialSnapshot, access: AccessPolicy): Actor => ({
  tenantId: u.tenantId,
  id: u.id,
  role: u.role,
  scopes: access.of(u.role),
  name: u.name,
});

import type { PlatformRepos, TenantRepos } from '@fundi/domain';
import type { StaffRepos } from '@fundi/domain/staff';
import type { OfferedHooks } from '../common/hooks.js';
import type { AccessDeps, CoreDeps } from '../common/ports.js';
import type { StaffField } from './staff-fields.js';

/**
 * What the staff use cases are built from: the staff, tenant and platform repositories, the clock, access checks,
 * and every capability's offers (the fields they add to a staff user, `staffFields`).
 */
export type StaffPorts = CoreDeps<StaffRepos & TenantRepos & PlatformRepos> & AccessDeps & { hooks: OfferedHooks };

/** What each staff use case gets: the ports, and the fields other capabilities add to a staff user, made once. */
export type StaffDeps = StaffPorts & { fields: readonly StaffField[] };

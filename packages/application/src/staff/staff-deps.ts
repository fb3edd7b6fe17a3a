import type { PlatformRepos, TenantRepos } from '@fundi/domain';
import type { StaffRepos } from '@fundi/domain/staff';
import type { AccessDeps, CoreDeps } from '../common/ports.js';

/** What the staff use cases need: the staff, tenant and platform repositories, the clock and access checks. */
export type StaffDeps = CoreDeps<StaffRepos & TenantRepos & PlatformRepos> & AccessDeps;

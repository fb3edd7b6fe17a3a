import type { PlatformRepos, TenantRepos } from '@fundi/domain';
import type { StaffRepos } from '@fundi/domain/staff';
import type { OfferedHooks } from '../common/hooks.js';
import type { AccessDeps, CoreDeps } from '../common/ports.js';

/**
 * What the staff use cases need: the staff, tenant and platform repositories, the clock, access checks, and every
 * capability's triggers (those a staff user may turn off, `personalTriggers`).
 */
export type StaffDeps = CoreDeps<StaffRepos & TenantRepos & PlatformRepos> &
  AccessDeps & { hooks: Pick<OfferedHooks, 'triggers'> };

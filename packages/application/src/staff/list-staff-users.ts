import type { Actor } from '../common/actor.js';
import type { StaffDeps } from './staff-deps.js';
import { staffView, type StaffView } from './staff-view.js';

/** The tenant's staff users, by email. */
export class ListStaffUsers {
  constructor(private readonly deps: Pick<StaffDeps, 'repos'>) {}

  async execute(actor: Actor): Promise<StaffView[]> {
    return (await this.deps.repos.staffCredentials.listByTenant(actor.tenantId)).map(staffView);
  }
}

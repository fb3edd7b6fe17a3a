import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { StaffDeps } from './staff-deps.js';
import { writeStaffStatus } from './write-staff-status.js';
import { staffView, type StaffView } from './staff-view.js';

/** Disables (ending every session at once) or re-enables a staff user; nobody disables themselves. */
export class SetStaffStatus {
  constructor(private readonly deps: StaffDeps) {}

  async execute(actor: Actor, userId: string, status: 'active' | 'disabled'): Promise<StaffView> {
    if (userId === actor.id) throw DomainError.conflict('own_account', 'You cannot disable your own account');
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const u = await writeStaffStatus(tx, actor.tenantId, userId, status, now.toISOString());
      await recordChange(tx, actor, now, {
        action: `staff_user.${status === 'disabled' ? 'disabled' : 'enabled'}`,
        resourceType: 'staff_user',
        resourceId: u.id,
      });
      return staffView(u);
    });
  }
}

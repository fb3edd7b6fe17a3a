import { newId } from '@fundi/domain';
import { StaffCredential } from '@fundi/domain/staff';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { personalTriggers } from '../common/triggers.js';
import type { StaffDeps } from './staff-deps.js';
import { USER_INVITED_EVENT, type UserView, userView } from './staff-directory.js';

/**
 * Adds a person to the staff directory (`/users`, docs/api.md "Users"): they receive staff and admin notifications
 * and sign in to the dashboard. Created without a password: an invitation by email lets them set one.
 */
export class CreateUser {
  constructor(private readonly deps: StaffDeps) {}

  async execute(
    actor: Actor,
    input: { name: unknown; email: unknown; role: unknown; mobile?: unknown; notificationPreferences?: unknown },
  ): Promise<UserView> {
    const now = this.deps.clock.now();
    const triggers = personalTriggers(this.deps.hooks.triggers);
    const u = StaffCredential.create(input, { id: newId('usr'), tenantId: actor.tenantId, now, triggers });
    await this.deps.uow.run(async (tx) => {
      await tx.staffCredentials.insert(u);
      await recordChange(tx, actor, now, {
        action: 'user.created',
        resourceType: 'user',
        resourceId: u.id,
        details: { role: u.role },
        events: [{ type: USER_INVITED_EVENT, data: { userId: u.id, invitedBy: actor.id } }],
      });
    });
    return userView(u, triggers);
  }
}

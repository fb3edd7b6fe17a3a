import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { StaffDeps } from './staff-deps.js';
import { writeStaffStatus } from './write-staff-status.js';
import { type UserView, userView } from './staff-directory.js';
import { storedValues } from './staff-fields.js';

/** Deactivated users are sent no messages and cannot sign in (their sessions end at once); activate undoes it. */
export class SetUserStatus {
  constructor(private readonly deps: StaffDeps) {}

  async execute(actor: Actor, id: string, status: 'active' | 'disabled'): Promise<UserView> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const u = await writeStaffStatus(tx, actor.tenantId, id, status, now.toISOString());
      await recordChange(tx, actor, now, {
        action: status === 'disabled' ? 'user.deactivated' : 'user.activated',
        resourceType: 'user',
        resourceId: id,
      });
      const { fields } = this.deps;
      return userView(u, fields, (await storedValues(fields, tx, actor.tenantId, [id])).get(id));
    });
  }
}

import { DomainError } from '@fundi/domain';
import { StaffCredential, type StaffPatch } from '@fundi/domain/staff';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { personalTriggers } from '../common/triggers.js';
import type { StaffDeps } from './staff-deps.js';
import { type UserView, userView } from './staff-directory.js';

/** Changes a staff user's name, mobile, role or notification preferences (docs/api.md, "Users"). */
export class UpdateUser {
  constructor(private readonly deps: StaffDeps) {}

  async execute(actor: Actor, id: string, patch: StaffPatch): Promise<UserView> {
    const now = this.deps.clock.now();
    const triggers = personalTriggers(this.deps.hooks.triggers);
    return this.deps.uow.run(async (tx) => {
      const u = await tx.staffCredentials.findById(actor.tenantId, id);
      if (!u) throw DomainError.notFound('user', id);
      const next = StaffCredential.update(u, patch, now, triggers);
      await tx.staffCredentials.update(next);
      await recordChange(tx, actor, now, {
        action: 'user.updated',
        resourceType: 'user',
        resourceId: id,
        details: { fields: Object.keys(patch).filter((k) => patch[k as keyof StaffPatch] !== undefined) },
      });
      return userView(next, triggers);
    });
  }
}

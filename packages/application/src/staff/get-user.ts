import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { personalTriggers } from '../common/triggers.js';
import type { StaffDeps } from './staff-deps.js';
import { type UserView, userView } from './staff-directory.js';

/** One staff user of the caller's tenant (docs/api.md, "Users"). */
export class GetUser {
  constructor(private readonly deps: StaffDeps) {}

  async execute(actor: Actor, id: string): Promise<UserView> {
    const u = await this.deps.repos.staffCredentials.findById(actor.tenantId, id);
    if (!u) throw DomainError.notFound('user', id);
    return userView(u, personalTriggers(this.deps.hooks.triggers));
  }
}

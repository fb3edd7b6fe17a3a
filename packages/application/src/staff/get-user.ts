import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { StaffDeps } from './staff-deps.js';
import { type UserView, userView } from './staff-directory.js';
import { storedValues } from './staff-fields.js';

/** One staff user of the caller's tenant (docs/api.md, "Users"). */
export class GetUser {
  constructor(private readonly deps: StaffDeps) {}

  async execute(actor: Actor, id: string): Promise<UserView> {
    const u = await this.deps.repos.staffCredentials.findById(actor.tenantId, id);
    if (!u) throw DomainError.notFound('user', id);
    const { fields } = this.deps;
    return userView(u, fields, (await storedValues(fields, this.deps.repos, actor.tenantId, [id])).get(id));
  }
}

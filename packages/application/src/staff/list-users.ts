import { pageOf, type Page, type PageRequest } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { StaffDeps } from './staff-deps.js';
import { type UserView, userView } from './staff-directory.js';
import { storedValues } from './staff-fields.js';

/** The caller's tenant's staff users, by role and status, a page at a time (docs/api.md, "Users"). */
export class ListUsers {
  constructor(private readonly deps: StaffDeps) {}

  async execute(actor: Actor, filter: { role?: string; status?: string }, page: PageRequest): Promise<Page<UserView>> {
    const all = (await this.deps.repos.staffCredentials.listByTenant(actor.tenantId)).filter(
      (u) => (!filter.role || u.role === filter.role) && (!filter.status || u.status === filter.status),
    );
    const p = pageOf(all, page);
    const { fields } = this.deps;
    const values = await storedValues(
      fields,
      this.deps.repos,
      actor.tenantId,
      p.items.map((u) => u.id),
    );
    return { ...p, items: p.items.map((u) => userView(u, fields, values.get(u.id))) };
  }
}

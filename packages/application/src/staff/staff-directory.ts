import {
  DomainError,
  STAFF_TRIGGER_KEYS,
  StaffCredential,
  newId,
  pageOf,
  type Page,
  type PageRequest,
  type Role,
  type StaffCredentialSnapshot,
  type StaffPatch,
} from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { StaffDeps } from './staff-accounts.js';

/** Internal events of the staff directory (no webhook event types); the user invitation reacts to `user.invited`. */
export const USER_INVITED_EVENT = 'user.invited';

/** A staff user as the `/users` API shows it. */
export interface UserView {
  id: string;
  name: string;
  email: string;
  mobile: string | null;
  role: Role;
  status: 'active' | 'disabled';
  /** Every staff trigger, on or off. */
  notificationPreferences: Record<string, boolean>;
  hasPassword: boolean;
  createdAt: string;
  updatedAt: string;
}

export const userView = (u: StaffCredentialSnapshot): UserView => ({
  id: u.id,
  name: u.name,
  email: u.email,
  mobile: u.mobile,
  role: u.role,
  status: u.status,
  notificationPreferences: Object.fromEntries(
    STAFF_TRIGGER_KEYS.map((k) => [k, u.notificationPreferences[k] !== false]),
  ),
  hasPassword: u.passwordHash !== null,
  createdAt: u.createdAt,
  updatedAt: u.updatedAt,
});

/**
 * The staff directory (`/users`): the people of a tenant who receive staff and admin notifications and sign in to
 * the dashboard (docs/api.md, "Users"). Created without a password: an invitation by email lets them set one.
 */
export class StaffDirectory {
  constructor(private readonly deps: StaffDeps) {}

  async create(
    actor: Actor,
    input: { name: unknown; email: unknown; role: unknown; mobile?: unknown; notificationPreferences?: unknown },
  ): Promise<UserView> {
    const now = this.deps.clock.now();
    const u = StaffCredential.create(input, { id: newId('usr'), tenantId: actor.tenantId, now });
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
    return userView(u);
  }

  async get(actor: Actor, id: string): Promise<UserView> {
    const u = await this.deps.repos.staffCredentials.findById(actor.tenantId, id);
    if (!u) throw DomainError.notFound('user', id);
    return userView(u);
  }

  async list(actor: Actor, filter: { role?: string; status?: string }, page: PageRequest): Promise<Page<UserView>> {
    const all = (await this.deps.repos.staffCredentials.listByTenant(actor.tenantId)).filter(
      (u) => (!filter.role || u.role === filter.role) && (!filter.status || u.status === filter.status),
    );
    const p = pageOf(all, page);
    return { ...p, items: p.items.map(userView) };
  }

  async update(actor: Actor, id: string, patch: StaffPatch): Promise<UserView> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const u = await tx.staffCredentials.findById(actor.tenantId, id);
      if (!u) throw DomainError.notFound('user', id);
      const next = StaffCredential.update(u, patch, now);
      await tx.staffCredentials.update(next);
      await recordChange(tx, actor, now, {
        action: 'user.updated',
        resourceType: 'user',
        resourceId: id,
        details: { fields: Object.keys(patch).filter((k) => patch[k as keyof StaffPatch] !== undefined) },
      });
      return userView(next);
    });
  }

  /** Deactivated users get no notifications and cannot sign in (their sessions end at once); activate undoes it. */
  async setStatus(actor: Actor, id: string, status: 'active' | 'disabled'): Promise<UserView> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const u = await tx.staffCredentials.findById(actor.tenantId, id);
      if (!u) throw DomainError.notFound('user', id);
      const next = { ...u, status, updatedAt: now.toISOString() };
      await tx.staffCredentials.update(next);
      if (status === 'disabled') await tx.dashboardSessions.deleteForUser(u.tenantId, u.id);
      await recordChange(tx, actor, now, {
        action: status === 'disabled' ? 'user.deactivated' : 'user.activated',
        resourceType: 'user',
        resourceId: id,
      });
      return userView(next);
    });
  }
}

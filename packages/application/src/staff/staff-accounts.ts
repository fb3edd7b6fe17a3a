import { createHash, randomBytes } from 'node:crypto';
import { DomainError, newId, type PlatformRepos, type Role, type TenantRepos } from '@fundi/domain';
import { StaffCredential, type StaffCredentialSnapshot, type StaffRepos } from '@fundi/domain/staff';
import { operator, type Actor } from '../common/actor.js';
import type { AccessDeps, CoreDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { tenantBySlug } from '../tenants/tenant-lookup.js';
import { checkNewPassword, hashPassword } from './password.js';

export type StaffDeps = CoreDeps<StaffRepos & TenantRepos & PlatformRepos> & AccessDeps;

/** A one-time set-password link lives this long. */
export const SET_PASSWORD_HOURS = 72;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

export interface StaffView {
  id: string;
  email: string;
  name: string;
  role: Role;
  status: 'active' | 'disabled';
  hasPassword: boolean;
  createdAt: string;
}

export const staffView = (c: StaffCredentialSnapshot): StaffView => ({
  id: c.id,
  email: c.email,
  name: c.name,
  role: c.role,
  status: c.status,
  hasPassword: c.passwordHash !== null,
  createdAt: c.createdAt,
});

/**
 * Creates a staff user of a tenant (the operator's CLI, or an administrator in the dashboard). With a password the user can sign in at once; without
 * one the answer carries a one-time set-password token (valid for `SET_PASSWORD_HOURS`), shown only here.
 */
export class CreateStaffUser {
  constructor(private readonly deps: StaffDeps) {}

  async execute(
    tenantSlug: string,
    input: { email: unknown; name: unknown; role: unknown; password?: unknown },
    actor?: Actor,
  ): Promise<{ user: StaffView; setPasswordToken: string | null }> {
    const tenant = await tenantBySlug(this.deps.repos, tenantSlug);
    const now = this.deps.clock.now();
    let user = StaffCredential.create(input, { id: newId('usr'), tenantId: tenant.id, now });
    let token: string | null = null;
    if (input.password !== undefined)
      user = { ...user, passwordHash: await hashPassword(checkNewPassword(input.password)) };
    else {
      token = `${user.id}.${randomBytes(24).toString('base64url')}`;
      const expires = new Date(now.getTime() + SET_PASSWORD_HOURS * 3_600_000).toISOString();
      user = { ...user, setPasswordTokenHash: sha256(token), setPasswordExpiresAt: expires };
    }
    await this.deps.uow.run(async (tx) => {
      await tx.staffCredentials.insert(user);
      await recordChange(tx, actor ?? operator(tenant.id), now, {
        action: 'staff_user.created',
        resourceType: 'staff_user',
        resourceId: user.id,
        details: { role: user.role },
      });
    });
    return { user: staffView(user), setPasswordToken: token };
  }
}

/** Sets a password through a one-time link; the link then stops working and earlier sessions end. */
export class SetPasswordWithToken {
  constructor(private readonly deps: StaffDeps) {}

  /** The user a still-valid token belongs to (to greet them on the form), or null. */
  async peek(token: string): Promise<StaffView | null> {
    const u = await this.deps.repos.staffCredentials.findBySetPasswordToken(sha256(token));
    return u && u.setPasswordExpiresAt! > this.deps.clock.now().toISOString() ? staffView(u) : null;
  }

  async execute(token: string, password: unknown): Promise<{ tenantId: string; email: string }> {
    const hash = await hashPassword(checkNewPassword(password));
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const u = await tx.staffCredentials.findBySetPasswordToken(sha256(token));
      if (!u || u.setPasswordExpiresAt! <= now.toISOString()) {
        throw DomainError.forbidden('The link is not valid or has expired: ask an administrator for a new one');
      }
      await tx.staffCredentials.update({
        ...u,
        passwordHash: hash,
        setPasswordTokenHash: null,
        setPasswordExpiresAt: null,
        updatedAt: now.toISOString(),
      });
      await tx.dashboardSessions.deleteForUser(u.tenantId, u.id);
      await recordChange(tx, { tenantId: u.tenantId, id: u.id, role: u.role, scopes: [] }, now, {
        action: 'staff_user.password_set',
        resourceType: 'staff_user',
        resourceId: u.id,
      });
      return { tenantId: u.tenantId, email: u.email };
    });
  }
}

/** The tenant's staff users, by email. */
export class ListStaffUsers {
  constructor(private readonly deps: Pick<StaffDeps, 'repos'>) {}

  async execute(actor: Actor): Promise<StaffView[]> {
    return (await this.deps.repos.staffCredentials.listByTenant(actor.tenantId)).map(staffView);
  }
}

/** Disables (ending every session at once) or re-enables a staff user; nobody disables themselves. */
export class SetStaffStatus {
  constructor(private readonly deps: StaffDeps) {}

  async execute(actor: Actor, userId: string, status: 'active' | 'disabled'): Promise<StaffView> {
    if (userId === actor.id) throw DomainError.conflict('own_account', 'You cannot disable your own account');
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const u = await tx.staffCredentials.findById(actor.tenantId, userId);
      if (!u) throw DomainError.notFound('user', userId);
      const changed = { ...u, status, updatedAt: now.toISOString() };
      await tx.staffCredentials.update(changed);
      if (status === 'disabled') await tx.dashboardSessions.deleteForUser(u.tenantId, u.id);
      await recordChange(tx, actor, now, {
        action: `staff_user.${status === 'disabled' ? 'disabled' : 'enabled'}`,
        resourceType: 'staff_user',
        resourceId: u.id,
      });
      return staffView(changed);
    });
  }
}

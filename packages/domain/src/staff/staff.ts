import { Email, Mobile } from '../learners/contact.js';
import { DomainError, collect, type ErrorDetail } from '../common/errors.js';
import { parseRole, type Role } from '../tenants/access.js';
import type { DashboardSessionRepository } from './dashboard-session.js';

/**
 * A person who signs in to the dashboard: a staff credential of one tenant, named by email (unique per tenant,
 * case-insensitive). `passwordHash` is null until the person sets a password through a one-time link.
 */
export interface StaffCredentialSnapshot {
  id: string;
  tenantId: string;
  /** Lower-cased. */
  email: string;
  name: string;
  role: Role;
  status: 'active' | 'disabled';
  /** E.164, for WhatsApp; null when not given. */
  mobile: string | null;
  passwordHash: string | null;
  /** SHA-256 of the one-time set-password token, and when it stops working. */
  setPasswordTokenHash: string | null;
  setPasswordExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

function parseName(v: unknown): string {
  if (typeof v !== 'string' || !v.trim() || v.length > 200)
    throw DomainError.invalid('name', 'must be a non-empty string of at most 200 characters');
  return v.trim();
}

export interface StaffPatch {
  name?: unknown;
  email?: unknown;
  mobile?: unknown;
  role?: unknown;
}

export const StaffCredential = {
  create(
    input: { email: unknown; name: unknown; role: unknown; mobile?: unknown },
    ctx: { id: string; tenantId: string; now: Date },
  ): StaffCredentialSnapshot {
    const errors: ErrorDetail[] = [];
    const email = collect(errors, () => Email.parse(input.email).toLowerCase());
    const name = collect(errors, () => parseName(input.name));
    const role = collect(errors, () => parseRole(input.role));
    const mobile = input.mobile == null ? null : collect(errors, () => Mobile.parse(input.mobile, 'mobile'));
    if (errors.length) throw DomainError.invalidMany(errors);
    const at = ctx.now.toISOString();
    return {
      id: ctx.id,
      tenantId: ctx.tenantId,
      email: email!,
      name: name!,
      role: role!,
      status: 'active',
      mobile: mobile ?? null,
      passwordHash: null,
      setPasswordTokenHash: null,
      setPasswordExpiresAt: null,
      createdAt: at,
      updatedAt: at,
    };
  },

  /** Applies a partial change (every failing field reported at once). */
  update(c: StaffCredentialSnapshot, patch: StaffPatch, now: Date): StaffCredentialSnapshot {
    const errors: ErrorDetail[] = [];
    const next = { ...c };
    if (patch.name !== undefined) next.name = collect(errors, () => parseName(patch.name)) ?? c.name;
    if (patch.email !== undefined)
      next.email = collect(errors, () => Email.parse(patch.email).toLowerCase()) ?? c.email;
    if (patch.role !== undefined) next.role = collect(errors, () => parseRole(patch.role)) ?? c.role;
    if (patch.mobile !== undefined)
      next.mobile =
        patch.mobile === null ? null : (collect(errors, () => Mobile.parse(patch.mobile, 'mobile')) ?? c.mobile);
    if (errors.length) throw DomainError.invalidMany(errors);
    next.updatedAt = now.toISOString();
    return next;
  },
};

/** Port: staff credentials. */
export interface StaffCredentialRepository {
  /** Throws conflict `duplicate_email` when the tenant already has the (lower-cased) email. */
  insert(c: StaffCredentialSnapshot): Promise<void>;
  /** Replaces the row; not found when it does not exist. */
  update(c: StaffCredentialSnapshot): Promise<void>;
  /**
   * Stores a one-time set-password token (its hash) and its expiry, in one conditional write: only while the user
   * is active and, with `onlyWithoutPassword`, has no password yet. False (nothing written) otherwise or when
   * absent. Nothing else of the user is written, so a deactivation made concurrently is never undone.
   */
  storeSetPasswordToken(
    tenantId: string,
    id: string,
    token: { hash: string; expiresAt: string; at: string; onlyWithoutPassword: boolean },
  ): Promise<boolean>;
  findByEmail(tenantId: string, email: string): Promise<StaffCredentialSnapshot | null>;
  findById(tenantId: string, id: string): Promise<StaffCredentialSnapshot | null>;
  /** The tenant's users among `ids`, whatever their status (any order; unknown and other tenants' ids left out). */
  findByIds(tenantId: string, ids: readonly string[]): Promise<StaffCredentialSnapshot[]>;
  findBySetPasswordToken(tokenHash: string): Promise<StaffCredentialSnapshot | null>;
  /** Ordered by email. */
  listByTenant(tenantId: string): Promise<StaffCredentialSnapshot[]>;
}

export interface StaffRepos {
  staffCredentials: StaffCredentialRepository;
  dashboardSessions: DashboardSessionRepository;
}

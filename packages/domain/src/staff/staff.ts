import { Email } from '../learners/contact.js';
import { DomainError } from '../shared/errors.js';
import { parseRole, type Role } from '../tenants/access.js';

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
  passwordHash: string | null;
  /** SHA-256 of the one-time set-password token, and when it stops working. */
  setPasswordTokenHash: string | null;
  setPasswordExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A dashboard session: the cookie carries a random token, the store keeps only its hash. */
export interface DashboardSessionSnapshot {
  tokenHash: string;
  tenantId: string;
  userId: string;
  /** Compared with the `_csrf` field of every form post of this session. */
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}

export const StaffCredential = {
  create(
    input: { email: unknown; name: unknown; role: unknown },
    ctx: { id: string; tenantId: string; now: Date },
  ): StaffCredentialSnapshot {
    const email = Email.parse(input.email).toLowerCase();
    if (typeof input.name !== 'string' || !input.name.trim() || input.name.length > 200) {
      throw DomainError.invalid('name', 'must be a non-empty string of at most 200 characters');
    }
    const at = ctx.now.toISOString();
    return {
      id: ctx.id,
      tenantId: ctx.tenantId,
      email,
      name: input.name.trim(),
      role: parseRole(input.role),
      status: 'active',
      passwordHash: null,
      setPasswordTokenHash: null,
      setPasswordExpiresAt: null,
      createdAt: at,
      updatedAt: at,
    };
  },
};

/** Port: staff credentials. */
export interface StaffCredentialRepository {
  /** Throws conflict `duplicate_email` when the tenant already has the (lower-cased) email. */
  insert(c: StaffCredentialSnapshot): Promise<void>;
  /** Replaces the row; not found when it does not exist. */
  update(c: StaffCredentialSnapshot): Promise<void>;
  findByEmail(tenantId: string, email: string): Promise<StaffCredentialSnapshot | null>;
  findById(tenantId: string, id: string): Promise<StaffCredentialSnapshot | null>;
  findBySetPasswordToken(tokenHash: string): Promise<StaffCredentialSnapshot | null>;
  /** Ordered by email. */
  listByTenant(tenantId: string): Promise<StaffCredentialSnapshot[]>;
}

/** Port: dashboard sessions. */
export interface DashboardSessionRepository {
  insert(s: DashboardSessionSnapshot): Promise<void>;
  /** The session, or null when unknown (expiry is the caller's check). */
  find(tokenHash: string): Promise<DashboardSessionSnapshot | null>;
  /** Idempotent. */
  delete(tokenHash: string): Promise<void>;
  /** Ends every session of a user (password changed); returns how many. */
  deleteForUser(tenantId: string, userId: string): Promise<number>;
  /** Removes sessions expired before `before`; returns how many. */
  deleteExpired(before: string): Promise<number>;
}

export interface StaffRepos {
  staffCredentials: StaffCredentialRepository;
  dashboardSessions: DashboardSessionRepository;
}

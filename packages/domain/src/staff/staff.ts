import { Email, Mobile } from '../learners/contact.js';
import { DomainError, collect, type ErrorDetail } from '../common/errors.js';
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
  /** E.164, for WhatsApp; null when not given. */
  mobile: string | null;
  /** Staff and admin notifications this person turned off (`{"new_evidence": false}`); a trigger not listed is on. */
  notificationPreferences: NotificationPreferences;
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

/** The staff and admin notification triggers a staff user can turn off for themselves. */
export const STAFF_TRIGGER_KEYS = [
  'new_evidence',
  'moderation_due',
  'report_ready',
  'user_invited',
  'security_alert',
  'export_complete',
  'quota_warning',
  'webhook_disabled',
  'contact_bounced',
] as const;
export type StaffTriggerKey = (typeof STAFF_TRIGGER_KEYS)[number];
export type NotificationPreferences = Partial<Record<StaffTriggerKey, boolean>>;

/** `{trigger: boolean}` with known triggers only; each offending key is named `notificationPreferences.<key>`. */
export function parseNotificationPreferences(v: unknown): NotificationPreferences {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw DomainError.invalid('notificationPreferences', 'must be an object of trigger: true | false');
  const out: NotificationPreferences = {};
  const errors: ErrorDetail[] = [];
  for (const [k, x] of Object.entries(v)) {
    if (!(STAFF_TRIGGER_KEYS as readonly string[]).includes(k))
      errors.push({
        field: `notificationPreferences.${k}`,
        message: `unknown trigger; one of ${STAFF_TRIGGER_KEYS.join(', ')}`,
      });
    else if (typeof x !== 'boolean')
      errors.push({ field: `notificationPreferences.${k}`, message: 'must be true or false' });
    else out[k as StaffTriggerKey] = x;
  }
  if (errors.length) throw DomainError.invalidMany(errors);
  return out;
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
  notificationPreferences?: unknown;
}

export const StaffCredential = {
  create(
    input: { email: unknown; name: unknown; role: unknown; mobile?: unknown; notificationPreferences?: unknown },
    ctx: { id: string; tenantId: string; now: Date },
  ): StaffCredentialSnapshot {
    const errors: ErrorDetail[] = [];
    const email = collect(errors, () => Email.parse(input.email).toLowerCase());
    const name = collect(errors, () => parseName(input.name));
    const role = collect(errors, () => parseRole(input.role));
    const mobile = input.mobile == null ? null : collect(errors, () => Mobile.parse(input.mobile, 'mobile'));
    const prefs =
      input.notificationPreferences == null
        ? {}
        : collect(errors, () => parseNotificationPreferences(input.notificationPreferences));
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
      notificationPreferences: prefs ?? {},
      passwordHash: null,
      setPasswordTokenHash: null,
      setPasswordExpiresAt: null,
      createdAt: at,
      updatedAt: at,
    };
  },

  /** Applies a partial change (every failing field reported at once); preferences merge key by key. */
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
    if (patch.notificationPreferences !== undefined) {
      const p = collect(errors, () => parseNotificationPreferences(patch.notificationPreferences));
      if (p) next.notificationPreferences = { ...c.notificationPreferences, ...p };
    }
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

/** Port: dashboard sessions. */
export interface DashboardSessionRepository {
  insert(s: DashboardSessionSnapshot): Promise<void>;
  /** The session, or null when unknown (expiry is the caller's check). */
  find(tokenHash: string): Promise<DashboardSessionSnapshot | null>;
  /** Idempotent. */
  delete(tokenHash: string): Promise<void>;
  /** Ends every session of a user (password changed); returns how many. */
  deleteForUser(tenantId: string, userId: string): Promise<number>;
  /** Removes sessions expired before `before` (at most `limit` of them, the earliest expired); returns how many. */
  deleteExpired(before: string, limit?: number): Promise<number>;
}

export interface StaffRepos {
  staffCredentials: StaffCredentialRepository;
  dashboardSessions: DashboardSessionRepository;
}

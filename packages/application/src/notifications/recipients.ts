import { DomainError, type Role } from '@fundi/domain';
import type { LearnerSnapshot } from '@fundi/domain/learners';
import type { StaffCredentialSnapshot } from '@fundi/domain/staff';
import type { NotificationChannel, NotificationPreferences } from '@fundi/domain/notifications';
import type { NotificationRepoSet } from './notification-ports.js';

/**
 * Someone a notification can go to, with what the channels need: a learner, or a staff user of the `/users`
 * directory. `skip` says why a channel cannot be used for them (opt-out, no consent, no address).
 */
export interface Recipient {
  type: 'learner' | 'user';
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  mobile: string | null;
  /** Learners only: mail carries a one-click unsubscribe. */
  learner: LearnerSnapshot | null;
  user: StaffCredentialSnapshot | null;
}

export function learnerRecipient(l: LearnerSnapshot): Recipient {
  return {
    type: 'learner',
    id: l.id,
    firstName: l.firstName,
    lastName: l.lastName,
    email: l.email,
    mobile: l.mobile,
    learner: l,
    user: null,
  };
}

export function userRecipient(u: StaffCredentialSnapshot): Recipient {
  const [first, ...rest] = u.name.split(/\s+/);
  return {
    type: 'user',
    id: u.id,
    firstName: first ?? u.name,
    lastName: rest.join(' '),
    email: u.email,
    mobile: u.mobile,
    learner: null,
    user: u,
  };
}

/** Why `channel` cannot reach `r` (recorded on a skipped notification), or null when it can. */
export function skipReason(r: Recipient, channel: NotificationChannel): string | null {
  if (r.user && r.user.status !== 'active') return 'the user is deactivated';
  if (channel === 'email') {
    if (!r.email) return 'the recipient has no email address';
    if (r.learner?.emailOptOut) return 'the learner opted out of email';
    return null;
  }
  if (!r.mobile) return 'the recipient has no mobile number';
  if (r.learner && !r.learner.whatsappConsent) return 'the learner has not consented to WhatsApp messages';
  return null;
}

/**
 * Whether a staff user wants the notifications of `trigger`: every trigger is on until they turn it off, in the
 * preferences the notifications keep for them (`staffPreferences`), which `tenantId`'s users `userIds` have.
 */
export async function wanting(
  repos: Pick<NotificationRepoSet, 'staffPreferences'>,
  tenantId: string,
  userIds: readonly string[],
  trigger: string,
): Promise<Set<string>> {
  const prefs: ReadonlyMap<string, NotificationPreferences> = await repos.staffPreferences.forUsers(tenantId, userIds);
  return new Set(userIds.filter((id) => prefs.get(id)?.[trigger] !== false));
}

/**
 * The recipient an API call names: `learnerId` is a learner; `recipientId` is a staff user's id, or a learner's.
 * DomainError('not_found') naming the field when the tenant has neither.
 */
export async function findRecipient(
  repos: Pick<NotificationRepoSet, 'learners' | 'staffCredentials'>,
  tenantId: string,
  id: string,
  field: string,
  kind: 'any' | 'learner' = 'any',
): Promise<Recipient> {
  if (kind === 'any') {
    const u = await repos.staffCredentials.findById(tenantId, id);
    if (u) return userRecipient(u);
  }
  const l = await repos.learners.findById(tenantId, id);
  if (l) return learnerRecipient(l);
  throw new DomainError(
    'not_found',
    'not_found',
    `${field}: no ${kind === 'learner' ? 'learner' : 'user or learner'} ${id}`,
    [{ field, message: `no ${kind === 'learner' ? 'learner' : 'user or learner'} with this id` }],
  );
}

/**
 * The recipients of a bulk send, in the order of `ids`: staff users first by id, then learners in one query per
 * 500. DomainError('invalid') naming each `recipientIds.<n>` that is neither.
 */
export async function findRecipients(
  repos: Pick<NotificationRepoSet, 'learners' | 'staffCredentials'>,
  tenantId: string,
  ids: readonly string[],
): Promise<Recipient[]> {
  const staff = new Map((await repos.staffCredentials.listByTenant(tenantId)).map((u) => [u.id, u]));
  const learners = new Map(
    (
      await repos.learners.findByIds(
        tenantId,
        ids.filter((id) => !staff.has(id)),
      )
    ).map((l) => [l.id, l]),
  );
  const missing: { field: string; message: string }[] = [];
  const out: Recipient[] = [];
  for (const [i, id] of ids.entries()) {
    const u = staff.get(id);
    const l = learners.get(id);
    if (u) out.push(userRecipient(u));
    else if (l) out.push(learnerRecipient(l));
    else missing.push({ field: `recipientIds.${i}`, message: 'no user or learner with this id' });
  }
  if (missing.length) throw DomainError.invalidMany(missing);
  return out;
}

/** The tenant's active staff users in `roles` who want `trigger`. */
export async function staffFor(
  repos: Pick<NotificationRepoSet, 'staffCredentials' | 'staffPreferences'>,
  tenantId: string,
  roles: readonly Role[],
  trigger: string,
): Promise<Recipient[]> {
  const all = await repos.staffCredentials.listByTenant(tenantId);
  const told = all.filter((u) => u.status === 'active' && roles.includes(u.role));
  const wanted = await wanting(
    repos,
    tenantId,
    told.map((u) => u.id),
    trigger,
  );
  return told.filter((u) => wanted.has(u.id)).map(userRecipient);
}

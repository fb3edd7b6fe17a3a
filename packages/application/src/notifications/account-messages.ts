import type { LearnerSnapshot } from '@fundi/domain/learners';
import { randomBytes } from 'node:crypto';
import { SET_PASSWORD_HOURS, sha256 } from '../staff/set-password-token.js';
import { dashboardUrl, portalUrl } from './dashboard-pages.js';
import type { Draft } from './notification-drafts.js';
import { learnerRecipient, userRecipient } from './recipients.js';
import { draft, str, triggerOn, type RunCache, type TriggerContext } from './trigger-drafts.js';
import type { TriggerPayload } from './trigger-sources.js';

/**
 * A password reset asked for on the sign-in page: when the tenant has an active user with this email, a one-time
 * set-password link (valid one hour) is stored by its hash and mailed; the mail's copy goes once it is sent. The
 * answer never says whether the account exists (the page shows the same words either way).
 */
export async function requestPasswordReset(c: TriggerContext, tenantSlug: string, email: string): Promise<void> {
  const repos = c.d.repos;
  const tenant = await repos.tenants.findBySlug(tenantSlug.trim().toLowerCase());
  const user = tenant ? await repos.staffCredentials.findByEmail(tenant.id, email.trim().toLowerCase()) : null;
  if (!tenant || !user || user.status !== 'active') return;
  const token = `${user.id}.${randomBytes(32).toString('base64url')}`;
  const now = c.d.clock.now();
  // One conditional write of the token alone, so a change made since the read (a deactivation) is not undone.
  const stored = await repos.staffCredentials.storeSetPasswordToken(tenant.id, user.id, {
    hash: sha256(token),
    expiresAt: new Date(now.getTime() + 3_600_000).toISOString(),
    at: now.toISOString(),
    onlyWithoutPassword: false,
  });
  if (!stored) return;
  await c.create.execute(
    tenant.id,
    [
      {
        recipient: userRecipient(user),
        channel: 'email',
        template: 'password_reset',
        values: new Map([['actionUrl', dashboardUrl(c.d, `/set-password?token=${encodeURIComponent(token)}`)]]),
        trigger: 'password_reset',
        dedupeKey: null,
        createdBy: 'system',
      },
    ],
    { strict: false },
  );
}

/**
 * The invitation of a new staff user: a one-time set-password link (valid `SET_PASSWORD_HOURS`). The token is
 * derived from the event by the signer, so a job that runs twice stores the same token and sends one mail; the
 * mail's content is dropped once it is sent (it holds the link).
 */
export async function invitation(c: TriggerContext, cache: RunCache, p: TriggerPayload): Promise<Draft[]> {
  if (!(await triggerOn(c, cache, p.tenantId, 'user_invited'))) return [];
  const repos = c.d.repos;
  const user = await repos.staffCredentials.findById(p.tenantId, str(p.data.userId));
  if (!user || user.passwordHash || user.status !== 'active') return [];
  const token = `${user.id}.${c.d.signer.sign(p.eventId, 'user-invitation').split('.')[1]}`;
  const expires = new Date(c.d.clock.now().getTime() + SET_PASSWORD_HOURS * 3_600_000).toISOString();
  // One conditional write of the token alone: a deactivation or a password set since the read above stays.
  const stored = await repos.staffCredentials.storeSetPasswordToken(p.tenantId, user.id, {
    hash: sha256(token),
    expiresAt: expires,
    at: c.d.clock.now().toISOString(),
    onlyWithoutPassword: true,
  });
  if (!stored) return [];
  const by = str(p.data.invitedBy);
  const inviter =
    (await repos.staffCredentials.findById(p.tenantId, by))?.name ??
    (await repos.apiKeys.listByTenant(p.tenantId)).find((k) => k.id === by)?.name ??
    'An administrator';
  return [
    draft(p, 'user_invited', userRecipient(user), 'email', {
      'inviter.name': inviter,
      actionUrl: dashboardUrl(c.d, `/set-password?token=${encodeURIComponent(token)}`),
    }),
  ];
}

/**
 * A learner portal sign-in (docs/dashboard.md, "Learner portal"): the one-time link by email, or the six-digit code by
 * WhatsApp, to the learner the portal found. Sent whatever the tenant's trigger switches say (the learner asked for
 * it); the mail's copy goes once it is sent.
 */
export async function sendPortalSignIn(
  c: TriggerContext,
  learner: LearnerSnapshot,
  sent: { channel: 'email'; token: string } | { channel: 'whatsapp'; code: string },
): Promise<void> {
  const values = new Map(
    sent.channel === 'email'
      ? ([['actionUrl', portalUrl(c.d, `/link?token=${encodeURIComponent(sent.token)}`)]] as const)
      : ([['portal.code', sent.code]] as const),
  );
  await c.create.execute(
    learner.tenantId,
    [
      {
        recipient: learnerRecipient(learner),
        channel: sent.channel,
        template: sent.channel === 'email' ? 'portal_sign_in' : 'portal_code',
        values,
        trigger: sent.channel === 'email' ? 'portal_sign_in' : 'portal_code',
        dedupeKey: null,
        createdBy: 'system',
      },
    ],
    { strict: false },
  );
}

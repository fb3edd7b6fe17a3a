import { createHash, randomBytes, randomInt } from 'node:crypto';
import { DomainError, type TenantSnapshot } from '@fundi/domain';
import { Email, Mobile, type LearnerSnapshot } from '@fundi/domain/learners';
import { recordChange } from '../common/record-change.js';
import { PORTAL_SESSION_HOURS, SIGN_IN_MINUTES, learnerActor, type PortalDeps } from './portal-deps.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');
const codeHash = (tenantId: string, learnerId: string, code: string) => sha256(`code:${tenantId}:${learnerId}:${code}`);

/** The address a learner typed, read as an email (it has an `@`) or a South African mobile number; else null. */
export function readAddress(typed: string): { channel: 'email' | 'whatsapp'; address: string } | null {
  const v = typed.trim();
  try {
    return v.includes('@')
      ? { channel: 'email', address: Email.parse(v).toLowerCase() }
      : { channel: 'whatsapp', address: Mobile.parse(v) };
  } catch {
    return null;
  }
}

/** The learner a sign-in request names, when they may sign in. */
export interface SignInTarget {
  tenant: TenantSnapshot;
  learner: LearnerSnapshot;
  channel: 'email' | 'whatsapp';
}

/** What a learner is sent to sign in: a one-time link's token by email, or a six-digit code by WhatsApp. */
export type SignInSecret = { channel: 'email'; token: string } | { channel: 'whatsapp'; code: string };

/**
 * What the portal needs of the capability that sends messages: send this learner their sign-in link or code. It is
 * called directly, never through an event, so the secret reaches the message and nothing else (no outbox, no
 * webhook delivery).
 */
export type SendSignIn = (learner: LearnerSnapshot, secret: SignInSecret) => Promise<void>;

export interface OpenedPortalSession {
  token: string;
  expiresAt: string;
}

const refused = () =>
  new DomainError(
    'unauthorized',
    'sign_in_failed',
    'The link or code is not valid: it may have been used already or have expired. Ask for a new one.',
  );

/**
 * Passwordless sign-in to the learner portal (docs/dashboard.md, "Learner portal"). `find` says who an address is, only
 * to the caller (the page answers the same either way); `issue` stores a one-time link or code by its hash;
 * `openWith*` turns one into a session, once.
 */
export class PortalSignIns {
  constructor(private readonly d: PortalDeps) {}

  /**
   * The live learner of the tenant with this email (not opted out of email) or this mobile number (WhatsApp
   * consent given, and no other learner of the tenant with the same number); null otherwise. Erased learners have
   * neither, so they never sign in.
   */
  async find(tenantSlug: string, typed: string): Promise<SignInTarget | null> {
    const a = readAddress(typed);
    const tenant = a ? await this.d.repos.tenants.findBySlug(tenantSlug.trim().toLowerCase()) : null;
    if (!a || !tenant) return null;
    if (a.channel === 'email') {
      const l = await this.d.repos.learners.findByEmail(tenant.id, a.address);
      return l && l.email && !l.emailOptOut ? { tenant, learner: l, channel: 'email' } : null;
    }
    const found = await this.d.repos.learners.findByMobile(tenant.id, a.address, 2);
    const l = found.length === 1 ? found[0]! : null;
    return l?.whatsappConsent ? { tenant, learner: l, channel: 'whatsapp' } : null;
  }

  /** Stores a new one-time sign-in for the target and returns what to send: a link token or a six-digit code. */
  async issue(t: SignInTarget): Promise<SignInSecret> {
    const now = this.d.clock.now();
    const base = {
      tenantId: t.tenant.id,
      learnerId: t.learner.id,
      channel: t.channel,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + SIGN_IN_MINUTES * 60_000).toISOString(),
      usedAt: null,
    };
    if (t.channel === 'email') {
      const token = randomBytes(32).toString('base64url');
      await this.d.repos.portalSignIns.insert({ ...base, tokenHash: sha256(token) });
      return { channel: 'email', token };
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.d.repos.portalSignIns.insert({ ...base, tokenHash: codeHash(t.tenant.id, t.learner.id, code) });
    return { channel: 'whatsapp', code };
  }

  /** The emailed link's token to a session; refused when unknown, used, expired, or the learner may no longer sign in. */
  openWithLink(token: string): Promise<OpenedPortalSession> {
    return this.open(sha256(token));
  }

  /** The WhatsApp code, with the tenant and number it was sent for, to a session; refused like a link. */
  async openWithCode(tenantSlug: string, typed: string, code: string): Promise<OpenedPortalSession> {
    const t = await this.find(tenantSlug, typed);
    if (!t || t.channel !== 'whatsapp' || !/^\d{6}$/.test(code.trim())) throw refused();
    return this.open(codeHash(t.tenant.id, t.learner.id, code.trim()));
  }

  private async open(tokenHash: string): Promise<OpenedPortalSession> {
    const now = this.d.clock.now();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + PORTAL_SESSION_HOURS * 3_600_000).toISOString();
    return this.d.uow.run(async (tx) => {
      const used = await tx.portalSignIns.consume(tokenHash, now.toISOString());
      const learner = used ? await tx.learners.findById(used.tenantId, used.learnerId) : null;
      // Opted out or consent withdrawn since the link was sent: the channel no longer reaches them.
      const reachable =
        learner && (used!.channel === 'email' ? !!learner.email && !learner.emailOptOut : learner.whatsappConsent);
      if (!used || !learner || !reachable) throw refused();
      await tx.portalSignIns.deleteForLearner(learner.tenantId, learner.id);
      await tx.portalSessions.insert({
        tokenHash: sha256(token),
        tenantId: learner.tenantId,
        learnerId: learner.id,
        csrfToken: randomBytes(24).toString('base64url'),
        createdAt: now.toISOString(),
        expiresAt,
      });
      await recordChange(tx, learnerActor(learner, this.d.learnerScopes), now, {
        action: 'learner.portal_signed_in',
        resourceType: 'learner',
        resourceId: learner.id,
        details: { channel: used!.channel },
      });
      return { token, expiresAt };
    });
  }
}

export { sha256 as portalTokenHash };

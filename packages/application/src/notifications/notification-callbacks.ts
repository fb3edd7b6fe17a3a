import { randomBytes } from 'node:crypto';
import {
  DomainError,
  verifyWhatsAppSignature,
  whatsAppStatuses,
  type NotificationSnapshot,
  type NotificationStatus,
} from '@fundi/domain';
import { recordChange } from '../common/record-change.js';
import { systemActor } from '../common/actor.js';
import { checkHmac, parseEmailReports, phoneNumberIdOf, safeEqual, type EmailReport } from './callback-reports.js';
import type { NotificationDelivery } from './notification-delivery.js';
import type { NotificationPorts } from './notification-ports.js';
import { OPEN_PURPOSE, UNSUBSCRIBE_PURPOSE, hist } from './notification-service.js';

/** A well-formed signature header: `sha256=` and 64 hex digits. */
const SIGNATURE = /^sha256=[0-9a-fA-F]{64}$/;
const THROWAWAY_KEY = randomBytes(32).toString('hex');
const NOT_JSON = Symbol('not JSON');

const badSignature = (header: string) =>
  new DomainError('unauthorized', 'invalid_signature', `${header} is missing or does not match`);

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return NOT_JSON;
  }
}

/**
 * What providers and readers report after a send (docs/api.md, "Notifications", "Callbacks"): the WhatsApp
 * handshake and status callbacks, signed email reports (JSON or RFC 3464), the open pixel and the one-click
 * unsubscribe. Statuses move through `NotificationDelivery.report`, only ever forward.
 */
export class NotificationCallbacks {
  constructor(
    private readonly d: NotificationPorts,
    private readonly delivery: NotificationDelivery,
  ) {}

  private now(): Date {
    return this.d.clock.now();
  }

  /**
   * `GET` handshake of the WhatsApp callback: answers `hub.challenge` when `hub.verify_token` is the verify token of
   * a tenant's account (the one `phoneNumberId` names, or any) or of the operator's default account.
   */
  async whatsAppHandshake(query: Record<string, unknown>, tenantSlug: string | null): Promise<string> {
    const mode = query['hub.mode'];
    const token = query['hub.verify_token'];
    const challenge = query['hub.challenge'];
    if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string' || !challenge)
      throw DomainError.invalid('hub.mode', 'must be a subscribe handshake with hub.verify_token and hub.challenge');
    const candidates: string[] = [];
    if (this.d.channels.defaultWhatsApp) candidates.push(this.d.channels.defaultWhatsApp.verifyToken);
    if (tenantSlug) {
      const t = await this.d.repos.tenants.findBySlug(tenantSlug);
      const s = t ? await this.d.repos.notificationSettings.get(t.id) : null;
      if (s?.whatsapp) candidates.push(s.whatsapp.verifyToken);
    }
    if (!candidates.some((c) => safeEqual(c, token)))
      throw DomainError.forbidden('hub.verify_token does not match', 'verify_token_mismatch');
    return challenge;
  }

  /**
   * A WhatsApp status callback: the signature (`X-Hub-Signature-256`) is checked against the app secret of the
   * account the body names (by phone number id), or the operator's default account. Unknown or repeated message
   * ids change nothing. Answers how many statuses moved a notification.
   */
  async whatsAppCallback(raw: Buffer, signature: string | undefined): Promise<{ received: number; applied: number }> {
    if (!SIGNATURE.test(signature?.trim() ?? '')) throw badSignature('X-Hub-Signature-256');
    // The body is read for its phone number id only, to choose the secret; nothing else in it counts before the check.
    const body = parseJson(raw);
    const secrets: string[] = [];
    const phoneId = phoneNumberIdOf(body);
    const s = phoneId ? await this.d.repos.notificationSettings.findByPhoneNumberId(phoneId) : null;
    if (s?.whatsapp) secrets.push(this.d.box.open(s.whatsapp.appSecretCiphertext));
    if (this.d.channels.defaultWhatsApp) secrets.push(this.d.channels.defaultWhatsApp.appSecret);
    if (!secrets.some((x) => verifyWhatsAppSignature(raw, signature, x))) throw badSignature('X-Hub-Signature-256');
    if (body === NOT_JSON) throw DomainError.invalid('body', 'must be JSON');
    const reports = whatsAppStatuses(body);
    let applied = 0;
    for (const r of reports) {
      const n = await this.d.repos.notifications.findByProviderMessageId('whatsapp', r.providerMessageId);
      // A message of another tenant's account is not this callback's to change.
      if (!n || (s && n.tenantId !== s.tenantId)) continue;
      if (await this.delivery.report(n, r.status, r.at, r.error)) applied++;
    }
    return { received: reports.length, applied };
  }

  /**
   * An email delivery report: a JSON event list or a raw RFC 3464 delivery-status message, signed with the
   * tenant's callback secret (`X-Fundi-Signature: sha256=<hex HMAC of the raw body>`). The signature is checked
   * before any message is looked up, and a call that fails it gets the same 401 whatever it names: Form B's tenant is
   * the path's; under Form A it is the tenant whose notification the first known report names, and a call naming no
   * known message cannot be verified, so it is refused like a wrong signature.
   */
  async emailCallback(
    raw: Buffer,
    contentType: string | null,
    signature: string | undefined,
    tenantSlug: string | null,
  ): Promise<{ received: number; applied: number }> {
    if (!SIGNATURE.test(signature?.trim() ?? '')) throw badSignature('X-Fundi-Signature');
    const tenantId = tenantSlug === null ? null : await this.verifiedTenant(tenantSlug, raw, signature);
    const reports = parseEmailReports(raw, contentType);
    const tenant = tenantId ?? (await this.signerOf(reports, raw, signature));
    let applied = 0;
    for (const r of reports) {
      const n = await this.d.repos.notifications.findByProviderMessageId('email', r.messageId);
      if (!n || n.tenantId !== tenant) continue;
      if (r.event === 'soft_bounce') {
        // The reporting server gave up for now: after the third such report the address counts as bounced.
        const soft = n.history.filter((h) => h.detail?.startsWith('soft bounce reported')).length + 1;
        if (soft <= 3) {
          await this.note(n, `soft bounce reported (${soft} of 3): ${r.detail ?? ''}`.trim());
          applied++;
          continue;
        }
      }
      const status: NotificationStatus = r.event === 'soft_bounce' || r.event === 'hard_bounce' ? 'bounced' : r.event;
      if (await this.delivery.report(n, status, r.at ?? this.now().toISOString(), r.detail)) applied++;
    }
    return { received: reports.length, applied };
  }

  /** Form B: the tenant of the path, when the call carries its callback signature; 401 otherwise. */
  private async verifiedTenant(slug: string, raw: Buffer, signature: string | undefined): Promise<string> {
    const t = await this.d.repos.tenants.findBySlug(slug);
    if (!(await this.signedBy(t?.id ?? null, raw, signature))) throw badSignature('X-Fundi-Signature');
    return t!.id;
  }

  /** Form A: the tenant whose notification the first known report names, when the call carries its signature. */
  private async signerOf(reports: EmailReport[], raw: Buffer, signature: string | undefined): Promise<string> {
    let tenantId: string | null = null;
    for (const r of reports) {
      tenantId = (await this.d.repos.notifications.findByProviderMessageId('email', r.messageId))?.tenantId ?? null;
      if (tenantId) break;
    }
    if (!(await this.signedBy(tenantId, raw, signature))) throw badSignature('X-Fundi-Signature');
    return tenantId!;
  }

  /**
   * Whether the body carries the callback signature of the tenant. Without a tenant or a secret the HMAC is still
   * computed (under a throwaway key), so the answer takes as long as for a wrong signature.
   */
  private async signedBy(tenantId: string | null, raw: Buffer, signature: string | undefined): Promise<boolean> {
    const s = tenantId ? await this.d.repos.notificationSettings.get(tenantId) : null;
    const secret = s?.callbackSecretCiphertext ? this.d.box.open(s.callbackSecretCiphertext) : null;
    const checked = checkHmac(raw, signature, secret ?? THROWAWAY_KEY);
    return secret !== null && checked;
  }

  private async note(n: NotificationSnapshot, detail: string): Promise<void> {
    await this.d.uow.run(async (tx) => {
      const cur = await tx.notifications.findById(n.tenantId, n.id);
      if (!cur) return;
      const at = this.now().toISOString();
      // After the learner's erasure (no address left) the provider's words are not kept.
      const kept = cur.to === null ? null : detail;
      await tx.notifications.update({ ...cur, history: [...cur.history, hist(cur.status, at, kept)], updatedAt: at });
    });
  }

  /** The open pixel: a valid signature marks the email opened; anything else is ignored (the GIF is served anyway). */
  async opened(token: string): Promise<void> {
    const payload = this.d.signer.verify(token.replace(/\.gif$/, ''), OPEN_PURPOSE);
    if (!payload) return;
    const [tenantId, id] = payload.split(':');
    const n = tenantId && id ? await this.d.repos.notifications.findById(tenantId, id) : null;
    if (n?.channel === 'email' && n.status !== 'queued')
      await this.delivery.report(n, 'opened', this.now().toISOString(), null);
  }

  /** One-click unsubscribe from a learner's mail: the learner opts out of email (audited). */
  async unsubscribeByToken(token: string): Promise<{ unsubscribed: boolean }> {
    const payload = this.d.signer.verify(token, UNSUBSCRIBE_PURPOSE);
    if (!payload) throw new DomainError('forbidden', 'signed_url_invalid', 'The unsubscribe link is not valid');
    const [tenantId, learnerId] = payload.split(':') as [string, string];
    const now = this.now();
    await this.d.uow.run(async (tx) => {
      const l = await tx.learners.findById(tenantId, learnerId);
      if (!l) return;
      await tx.learners.update({ ...l, emailOptOut: true, updatedAt: now.toISOString() });
      await recordChange(tx, systemActor(tenantId), now, {
        action: 'learner.email_opt_out',
        resourceType: 'learner',
        resourceId: learnerId,
        details: { via: 'unsubscribe_link' },
      });
    });
    return { unsubscribed: true };
  }
}

import { randomBytes } from 'node:crypto';
import type { NotificationSnapshot, NotificationStatus } from '@fundi/domain/notifications';
import type { NotificationPorts } from './notification-ports.js';
import type { ReportNotificationStatus } from './report-notification-status.js';
import { checkHmac, parseEmailReports, type EmailReport } from './callback-reports.js';
import { SIGNATURE, badSignature } from './callback-signatures.js';
import { hist } from './notification-drafts.js';

/** The key of the HMAC computed when there is no secret to check against, so a refusal takes as long. */
const THROWAWAY_KEY = randomBytes(32).toString('hex');

/**
 * An email delivery report: a JSON event list or a raw RFC 3464 delivery-status message, signed with the
 * tenant's callback secret (`X-Fundi-Signature: sha256=<hex HMAC of the raw body>`). The signature is checked
 * before any message is looked up, and a call that fails it gets the same 401 whatever it names: Form B's tenant is
 * the path's; under Form A it is the tenant whose notification the first known report names, and a call naming no
 * known message cannot be verified, so it is refused like a wrong signature.
 */
export class ReceiveEmailReports {
  constructor(
    private readonly d: NotificationPorts,
    private readonly reportStatus: ReportNotificationStatus,
  ) {}

  async execute(
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
      if (await this.reportStatus.execute(n, status, r.at ?? this.d.clock.now().toISOString(), r.detail)) applied++;
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
      const at = this.d.clock.now().toISOString();
      // After the learner's erasure (no address left) the provider's words are not kept.
      const kept = cur.to === null ? null : detail;
      await tx.notifications.update({ ...cur, history: [...cur.history, hist(cur.status, at, kept)], updatedAt: at });
    });
  }
}

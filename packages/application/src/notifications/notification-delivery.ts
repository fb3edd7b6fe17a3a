import {
  DomainError,
  FINAL_STATUS,
  advanceStatus,
  afterSendFailure,
  isAddressFailure,
  isFinalStatus,
  sendFailure,
  unsubscribeHeaders,
  type LearnerSnapshot,
  type NotificationSnapshot,
  type NotificationStatus,
  type SendFailure,
  type StoredNotificationSettings,
} from '@fundi/domain';
import { enqueueJob } from '../jobs/job-definition.js';
import { systemActor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type {
  NotificationPorts,
  NotificationRepoSet,
  OpenSmtpSettings,
  OpenWhatsAppSettings,
} from './notification-ports.js';
import { SEND_NOTIFICATIONS, UNSUBSCRIBE_PURPOSE, hist, type NotificationService } from './notification-service.js';
import { staffFor } from './recipients.js';
import type { TemplateVariable } from './template-variables.js';

/** Sends in flight at once within one job. */
const SEND_CONCURRENCY = 32;
/** The tenant's settings with secrets opened, for one send job. */
interface OpenSettings {
  smtp: OpenSmtpSettings | null;
  whatsapp: OpenWhatsAppSettings | null;
}

type Outcome = { ok: true; providerMessageId: string } | { ok: false; failure: SendFailure };

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * What happens to a notification after it is made (docs/api.md, "Notifications"): the worker's send job with its
 * retries and bounces, and the statuses reported later (`NotificationCallbacks` reads them from providers).
 */
/** Templates whose content signs someone in: not kept once sent. */
const SIGN_IN_TEMPLATES = new Set([
  'user_invited',
  'password_reset',
  'portal_sign_in',
  'portal_code',
  'logbook_sign_off',
]);

export class NotificationDelivery {
  constructor(
    private readonly d: NotificationPorts,
    private readonly service: NotificationService,
  ) {}

  private now(): Date {
    return this.d.clock.now();
  }

  // ---- the worker's send job ---------------------------------------------------------------------------------------

  /**
   * Sends the queued notifications among `ids` and records every outcome in one transaction. A retryable failure
   * (soft bounce, throttling, an unreachable server) is queued again after a delay; a final one ends in `bounced`
   * or `failed`, and a hard bounce of a learner's address flags the learner and tells the admins. A job that runs
   * again after a crash sends only what is still queued.
   */
  async runSend(tenantId: string, ids: readonly string[]): Promise<void> {
    const due = (await this.d.repos.notifications.findMany(tenantId, ids)).filter(
      (n) => n.status === 'queued' && n.content !== null && n.to !== null,
    );
    if (due.length === 0) return;
    const settings = this.openSettings(await this.d.repos.notificationSettings.get(tenantId));
    const outcomes = await mapLimit(due, SEND_CONCURRENCY, (n) => this.deliver(n, settings));
    const now = this.now();
    const bounced: NotificationSnapshot[] = [];
    await this.d.uow.run(async (tx) => {
      // Outcomes are written only where the notification is still queued (the store checks), so nothing else that
      // moved it meanwhile is overwritten, without reading the rows again.
      const changed: NotificationSnapshot[] = [];
      for (const [i, cur] of due.entries()) {
        const next = await this.applyOutcome(tx, cur, outcomes[i]!, now);
        changed.push(next);
        if (next.status === FINAL_STATUS[next.channel] && !outcomes[i]!.ok) {
          const f = (outcomes[i] as { failure: SendFailure }).failure;
          if (isAddressFailure(f) && next.recipientType === 'learner') bounced.push(next);
        }
      }
      await tx.notifications.updateOutcomes(tenantId, changed);
      for (const n of bounced) await this.flagLearner(tx, n, now);
    });
    await this.forgetMailOfErased(tenantId, due);
    for (const n of bounced) await this.tellAdminsOfBounce(n);
  }

  /**
   * A learner erased while their mail was being sent: the erasure's own sweep of kept copies may have come before
   * the copy was written, so it is deleted here, once the outcome is recorded (docs/api.md, "Erasure").
   */
  private async forgetMailOfErased(tenantId: string, sent: readonly NotificationSnapshot[]): Promise<void> {
    const ids = sent.filter((n) => n.channel === 'email').map((n) => n.id);
    if (ids.length === 0) return;
    const redacted = await this.d.repos.notifications.redactedAmong(tenantId, ids);
    if (redacted.length) await this.d.channels.forgetMail(redacted);
  }

  private async applyOutcome(
    tx: Pick<NotificationRepoSet, 'jobs'>,
    cur: NotificationSnapshot,
    o: Outcome,
    now: Date,
  ): Promise<NotificationSnapshot> {
    const at = now.toISOString();
    const attempts = cur.attempts + 1;
    // An invitation, a password reset or a portal sign-in holds a link or code that signs someone in: once sent (or
    // given up), the copy of it goes.
    const keep = SIGN_IN_TEMPLATES.has(cur.template) ? { content: null } : {};
    if (o.ok)
      return {
        ...cur,
        ...keep,
        attempts,
        status: 'sent',
        providerMessageId: o.providerMessageId,
        history: [...cur.history, hist('sent', at)],
        updatedAt: at,
      };
    const f = o.failure;
    const said = `${f.reason}${f.code ? ` (${f.code})` : ''}: ${f.detail}`;
    const after = afterSendFailure(cur.channel, attempts, f);
    if (after.retry) {
      const dueAt = new Date(now.getTime() + after.delayMs);
      await enqueueJob(
        tx.jobs,
        SEND_NOTIFICATIONS,
        { tenantId: cur.tenantId, ids: [cur.id] },
        { now, dueAt, key: `notify-retry:${cur.id}:${attempts}` },
      );
      return {
        ...cur,
        attempts,
        history: [
          ...cur.history,
          hist('queued', at, `attempt ${attempts} failed, ${said}; next try at ${dueAt.toISOString()}`),
        ],
        updatedAt: at,
      };
    }
    return {
      ...cur,
      ...keep,
      attempts,
      status: after.status,
      history: [...cur.history, hist(after.status, at, said)],
      updatedAt: at,
    };
  }

  private openSettings(s: StoredNotificationSettings | null): OpenSettings {
    const box = this.d.box;
    return {
      smtp: s?.smtp
        ? {
            host: s.smtp.host,
            port: s.smtp.port,
            secure: s.smtp.secure,
            user: s.smtp.user,
            password: s.smtp.passwordCiphertext ? box.open(s.smtp.passwordCiphertext) : null,
            from: s.smtp.from,
          }
        : null,
      whatsapp: s?.whatsapp
        ? {
            phoneNumberId: s.whatsapp.phoneNumberId,
            baseUrl: s.whatsapp.baseUrl,
            apiVersion: s.whatsapp.apiVersion,
            accessToken: box.open(s.whatsapp.accessTokenCiphertext),
          }
        : null,
    };
  }

  private async deliver(n: NotificationSnapshot, s: OpenSettings): Promise<Outcome> {
    const c = n.content!;
    try {
      if (c.kind === 'email') {
        const { mailer, from } = this.d.channels.mailer(s.smtp);
        const r = await mailer.send({
          from,
          to: n.to!,
          subject: c.subject,
          html: c.html,
          text: c.text,
          headers: { 'X-Fundi-Notification': n.id, ...this.unsubscribe(n) },
          refs: n.learnerId ? [n.id, n.learnerId] : [n.id],
        });
        return r.ok ? { ok: true, providerMessageId: r.messageId } : r;
      }
      const channel = this.d.channels.whatsapp(s.whatsapp);
      if (!channel)
        return { ok: false, failure: sendFailure('rejected', null, 'WhatsApp is not configured for this tenant') };
      const r = await channel.send({ to: n.to!, template: c.template, language: c.language, parameters: c.parameters });
      return r.ok ? { ok: true, providerMessageId: r.providerMessageId } : r;
    } catch (e) {
      if (e instanceof DomainError && e.kind === 'invalid')
        return {
          ok: false,
          failure: sendFailure(c.kind === 'email' ? 'hard_bounce' : 'invalid_recipient', null, e.message),
        };
      return { ok: false, failure: sendFailure('unavailable', null, e instanceof Error ? e.message : String(e)) };
    }
  }

  /** Learner mail carries a one-click unsubscribe link when the service has a public address. */
  private unsubscribe(n: NotificationSnapshot): Record<string, string> {
    const base = this.d.settings.publicUrl;
    if (n.recipientType !== 'learner' || !base) return {};
    const url = `${base}/api/v1/notifications/unsubscribe/${this.d.signer.sign(`${n.tenantId}:${n.recipientId}`, UNSUBSCRIBE_PURPOSE)}`;
    return url.startsWith('https:') ? unsubscribeHeaders(url) : { 'List-Unsubscribe': `<${url}>` };
  }

  /** A hard bounce: the learner is flagged for a contact update (visible on the learner), audited. */
  private async flagLearner(tx: NotificationRepoSet, n: NotificationSnapshot, now: Date): Promise<void> {
    const l = await tx.learners.findById(n.tenantId, n.recipientId);
    if (!l) return;
    const flagged: LearnerSnapshot = { ...l, contactUpdateNeeded: true, updatedAt: now.toISOString() };
    await tx.learners.update(flagged);
    await recordChange(tx, systemActor(n.tenantId), now, {
      action: 'learner.contact_update_flagged',
      resourceType: 'learner',
      resourceId: l.id,
      details: { notificationId: n.id, channel: n.channel },
    });
  }

  private async tellAdminsOfBounce(n: NotificationSnapshot): Promise<void> {
    const l = await this.d.repos.learners.findById(n.tenantId, n.recipientId);
    if (!l) return;
    const admins = await staffFor(this.d.repos, n.tenantId, ['admin'], 'contact_bounced');
    const summary = n.history.at(-1)?.detail ?? 'the address was refused';
    const values = new Map<TemplateVariable, string>([
      ['learner.firstName', l.firstName],
      ['learner.lastName', l.lastName],
      ['alert.summary', summary],
      ['actionUrl', this.service.dashboardUrl(`/learners/${l.id}`)],
    ]);
    await this.service.create(
      n.tenantId,
      admins.map((recipient) => ({
        recipient,
        channel: 'email' as const,
        template: 'contact_bounced' as const,
        values,
        trigger: 'contact_bounced',
        dedupeKey: `contact_bounced:${n.id}:${recipient.id}`,
        createdBy: 'system',
        about: l.id,
      })),
      { strict: false },
    );
  }

  // ---- reported statuses -------------------------------------------------------------------------------------------

  /** Moves a notification by a reported status: only forward, never out of a final status; history records it. */
  /** Moves a notification by a reported status (callbacks, the pixel); true when it moved. */
  async report(
    n: NotificationSnapshot,
    status: NotificationStatus,
    at: string,
    detail: string | null,
  ): Promise<boolean> {
    if (n.status === 'skipped' || isFinalStatus(n.channel, n.status as NotificationStatus)) return false;
    const next = advanceStatus(n.channel, n.status as NotificationStatus, status);
    if (next === n.status) return false;
    let flagged: NotificationSnapshot | null = null;
    await this.d.uow.run(async (tx) => {
      const cur = await tx.notifications.findById(n.tenantId, n.id);
      if (!cur || cur.status === 'skipped') return;
      const moved = advanceStatus(cur.channel, cur.status as NotificationStatus, status);
      if (moved === cur.status) return;
      // After the learner's erasure (no address left) a report keeps its status, not the provider's words.
      await tx.notifications.update({
        ...cur,
        status: moved,
        history: [...cur.history, hist(moved, at, cur.to === null ? null : detail)],
        updatedAt: this.now().toISOString(),
      });
      if (moved === FINAL_STATUS[cur.channel] && cur.recipientType === 'learner') {
        flagged = { ...cur, history: [...cur.history, hist(moved, at, detail)] };
        await this.flagLearner(tx, cur, this.now());
      }
    });
    if (flagged) await this.tellAdminsOfBounce(flagged);
    return true;
  }
}

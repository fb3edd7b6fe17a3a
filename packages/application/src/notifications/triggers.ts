import {
  newId,
  type DomainEvent,
  type EnrolmentSnapshot,
  type JobQueue,
  type LearnerSnapshot,
  type Role,
} from '@fundi/domain';
import { randomBytes } from 'node:crypto';
import { enqueueJob, jobType } from '../jobs/job-definition.js';
import { SAMPLE_DRAWN_EVENT } from '../assessments/draw-moderation-sample.js';
import { SECURITY_EVENT } from '../tenants/manage-api-keys.js';
import type { EventReaction } from '../webhooks/dispatch-outbox.js';
import type { TemplateKey } from './built-in-templates.js';
import type { NotificationPorts } from './notification-ports.js';
import type { Draft, NotificationService } from './notification-service.js';
import { learnerRecipient, staffFor, userRecipient, wants, type Recipient } from './recipients.js';
import { SET_PASSWORD_HOURS, sha256 } from '../staff/staff-accounts.js';
import { USER_INVITED_EVENT } from '../staff/staff-directory.js';
import type { TemplateVariable } from './template-variables.js';

/** Internal event (not a webhook event type): a webhook subscription was disabled after failed deliveries. */
export const WEBHOOK_DISABLED_EVENT = 'webhook.subscription_disabled';
/** Internal event: storage crossed 80% or 90% of the tenant's allowance (written by evidence uploads). */
const QUOTA_EVENT = 'tenant.quota_warning';

/** What a trigger job needs of its event: ids, codes and words, never the learner's personal data. */
export interface TriggerPayload {
  tenantId: string;
  eventId: string;
  type: string;
  data: Record<string, string | number | null>;
}

/** Daily: reminds learners whose enrolment is due to end in three days. */
export const DEADLINE_REMINDERS = jobType<Record<string, never>>('notifications.deadline_reminders', 'long', {
  maxAttempts: 3,
});
/** Days before an enrolment's expected end date that the reminder goes out. */
export const REMINDER_DAYS = 3;

/**
 * Reacts to the committed events of one dispatch batch: works out the recipients and sends. Queued by the outbox
 * dispatcher, one job per batch of events (not per event), so a burst of events costs a few jobs.
 */
export const RUN_TRIGGERS = jobType<{ events: TriggerPayload[] }>('notifications.triggers', 'short', {
  maxAttempts: 5,
});

/** What one trigger run reads once and shares between its events. */
interface RunCache {
  learners: Map<string, LearnerSnapshot | null>;
  settings: Map<string, Record<string, boolean>>;
}

const pick = (d: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(
    keys.map((k) => {
      const v = d[k];
      return [k, typeof v === 'string' || typeof v === 'number' ? v : null];
    }),
  );

/** The events triggers react to, and the fields each trigger reads. */
const SOURCES: Record<string, (d: Record<string, unknown>) => Record<string, string | number | null> | null> = {
  'learner.created': (d) => pick(d, ['id']),
  'assessment.recorded': (d) => pick(d, ['assessmentId', 'learnerId', 'enrolmentId', 'moduleCode', 'outcome']),
  'enrolment.status_changed': (d) =>
    d.to === 'completed' ? pick(d, ['enrolmentId', 'learnerId', 'programmeCode', 'to']) : null,
  'evidence.reviewed': (d) =>
    d.status === 'approved' || d.status === 'revision_requested'
      ? pick(d, ['evidenceId', 'learnerId', 'moduleId', 'status', 'feedback'])
      : null,
  'evidence.uploaded': (d) => pick(d, ['evidenceId', 'learnerId', 'moduleId', 'enrolmentId', 'evidenceType']),
  [QUOTA_EVENT]: (d) => pick(d, ['percent']),
  'export.ready': (d) => pick(d, ['exportId', 'type']),
  [WEBHOOK_DISABLED_EVENT]: (d) => pick(d, ['subscriptionId', 'url']),
  [SECURITY_EVENT]: (d) => pick(d, ['action', 'keyId', 'keyName', 'role', 'count', 'ip']),
  [USER_INVITED_EVENT]: (d) => pick(d, ['userId', 'invitedBy']),
  [SAMPLE_DRAWN_EVENT]: (d) => pick(d, ['sampleId', 'programmeId', 'programmeCode', 'count', 'dueBy']),
};

/**
 * The outbox reaction: the committed events triggers listen to queue one trigger job per dispatch batch, in the
 * dispatcher's transaction (so none is lost or queued twice).
 */
export const notificationReaction: EventReaction = {
  types: Object.keys(SOURCES),
  async react(tx: { jobs: JobQueue }, events: readonly DomainEvent[], now: Date): Promise<void> {
    const payloads: TriggerPayload[] = [];
    for (const e of events) {
      const data = SOURCES[e.type]?.(e.data);
      if (data) payloads.push({ tenantId: e.tenantId, eventId: e.id, type: e.type, data });
    }
    // The events of a dispatch are taken once (marked dispatched in this transaction): the first id keys the job.
    if (payloads.length)
      await enqueueJob(
        tx.jobs,
        RUN_TRIGGERS,
        { events: payloads },
        { now, key: `notify-events:${payloads[0]!.eventId}` },
      );
  },
};

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const OUTCOME_WORDS: Record<string, string> = { C: 'competent', NYC: 'not yet competent' };

/**
 * Turns a trigger job into notifications: which template, which recipients (learner, assessors, admins), which
 * channels. A trigger the tenant turned off sends nothing; each (event, recipient, channel) has a dedupe key, so a
 * job that runs twice sends once.
 */
export class NotificationTriggers {
  constructor(
    private readonly d: NotificationPorts,
    private readonly service: NotificationService,
  ) {}

  /** One event (tests, tools). */
  async run(p: TriggerPayload): Promise<void> {
    await this.runMany([p]);
  }

  /**
   * A password reset asked for on the sign-in page: when the tenant has an active user with this email, a one-time
   * set-password link (valid one hour) is stored by its hash and mailed; the mail's copy goes once it is sent. The
   * answer never says whether the account exists (the page shows the same words either way).
   */
  async requestPasswordReset(tenantSlug: string, email: string): Promise<void> {
    const repos = this.d.repos;
    const tenant = await repos.tenants.findBySlug(tenantSlug.trim().toLowerCase());
    const user = tenant ? await repos.staffCredentials.findByEmail(tenant.id, email.trim().toLowerCase()) : null;
    if (!tenant || !user || user.status !== 'active') return;
    const token = `${user.id}.${randomBytes(32).toString('base64url')}`;
    const now = this.d.clock.now();
    // One conditional write of the token alone, so a change made since the read (a deactivation) is not undone.
    const stored = await repos.staffCredentials.storeSetPasswordToken(tenant.id, user.id, {
      hash: sha256(token),
      expiresAt: new Date(now.getTime() + 3_600_000).toISOString(),
      at: now.toISOString(),
      onlyWithoutPassword: false,
    });
    if (!stored) return;
    await this.service.create(
      tenant.id,
      [
        {
          recipient: userRecipient(user),
          channel: 'email',
          template: 'password_reset',
          values: new Map([
            ['actionUrl', this.service.dashboardUrl(`/set-password?token=${encodeURIComponent(token)}`)],
          ]),
          trigger: 'password_reset',
          dedupeKey: null,
          createdBy: 'system',
        },
      ],
      { strict: false },
    );
  }

  /**
   * One address presented many refused API keys in a short time (the HTTP layer counts them): when the tenant can
   * be told (the key was one of its revoked or expired keys, or the path names it), an internal security event is
   * written, which alerts its administrators. Returns the tenant told, or null.
   */
  async noteRefusedKeys(r: { ip: string; presented: string; path: string; count: number }): Promise<string | null> {
    const repos = this.d.repos;
    const key = await repos.apiKeys.findByHash(this.d.secrets.hash(r.presented));
    const slug = /^\/(?:api\/)?v1\/tenants\/([a-z0-9-]{1,50})(?:\/|$)/.exec(r.path)?.[1];
    const tenantId = key?.tenantId ?? (slug ? (await repos.tenants.findBySlug(slug))?.id : undefined);
    if (!tenantId) return null;
    const now = this.d.clock.now();
    await this.d.uow.run((tx) =>
      tx.outbox.add({
        id: newId('evt'),
        tenantId,
        type: SECURITY_EVENT,
        occurredAt: now.toISOString(),
        data: { action: 'refused', count: r.count, ip: r.ip, keyName: key?.name ?? null },
      }),
    );
    return tenantId;
  }

  /**
   * The events of one trigger job: the learners they name are read in one query per tenant, each tenant's switches
   * once, and each tenant's notifications are made in one transaction.
   */
  async runMany(events: readonly TriggerPayload[]): Promise<void> {
    const byTenant = new Map<string, TriggerPayload[]>();
    for (const e of events) {
      const list = byTenant.get(e.tenantId);
      if (list) list.push(e);
      else byTenant.set(e.tenantId, [e]);
    }
    for (const [tenantId, mine] of byTenant) {
      const cache: RunCache = { learners: new Map(), settings: new Map() };
      const ids = [
        ...new Set(
          mine
            .map((e) => str(e.data.learnerId) || (e.type === 'learner.created' ? str(e.data.id) : ''))
            .filter(Boolean),
        ),
      ];
      for (const id of ids) cache.learners.set(id, null);
      for (const l of await this.d.repos.learners.findByIds(tenantId, ids)) cache.learners.set(l.id, l);
      const drafts: Draft[] = [];
      for (const e of mine) drafts.push(...(await this.draftsFor(e, cache)));
      await this.service.create(tenantId, drafts, { strict: false });
    }
  }

  /** Whether the tenant has the trigger on, read once per run. */
  private async on(cache: RunCache, tenantId: string, key: string): Promise<boolean> {
    let t = cache.settings.get(tenantId);
    if (!t) {
      t = (await this.d.repos.notificationSettings.get(tenantId))?.triggers ?? {};
      cache.settings.set(tenantId, t);
    }
    return t[key] !== false;
  }

  /**
   * The deadline reminders of today: every open enrolment whose expected end date is `REMINDER_DAYS` from now gets
   * one reminder per channel (the dedupe key holds the date, so a second run the same day sends nothing new).
   */
  async remindDeadlines(): Promise<number> {
    const now = this.d.clock.now();
    const due = new Date(now.getTime() + REMINDER_DAYS * 86_400_000).toISOString().slice(0, 10);
    let after: string | null = null;
    let sent = 0;
    for (;;) {
      const page = await this.d.repos.enrolments.openDueOn(due, after, 200);
      if (page.length === 0) return sent;
      after = page.at(-1)!.id;
      for (const e of page) {
        const cache: RunCache = { learners: new Map(), settings: new Map() };
        const programme = await this.d.repos.programmes.findById(e.tenantId, e.programmeId);
        const p: TriggerPayload = {
          tenantId: e.tenantId,
          eventId: `deadline:${e.id}:${due}`,
          type: 'deadline',
          data: {},
        };
        const drafts = await this.toLearner(cache, p, 'deadline_reminder', e.learnerId, {
          'deadline.task': `completing ${programme?.name ?? e.programmeCode}`,
          'deadline.date': due,
          'programme.name': programme?.name ?? e.programmeCode,
        });
        sent += (await this.service.create(e.tenantId, drafts, { strict: false })).length;
      }
    }
  }

  private async draftsFor(p: TriggerPayload, cache: RunCache): Promise<Draft[]> {
    const t = p.tenantId;
    const d = p.data;
    const repos = this.d.repos;
    switch (p.type) {
      case 'learner.created':
        return this.toLearner(cache, p, 'welcome', str(d.id), {});
      case 'assessment.recorded': {
        const ctx = await this.enrolmentContext(t, str(d.enrolmentId));
        const module = ctx?.modules.find((m) => m.code === d.moduleCode);
        const values = {
          'module.name': module?.name ?? str(d.moduleCode),
          'assessment.result': OUTCOME_WORDS[str(d.outcome)] ?? str(d.outcome),
          'programme.name': ctx?.programmeName ?? '',
        } as const;
        const drafts = await this.toLearner(cache, p, 'assessment_result', str(d.learnerId), values);
        if (ctx && d.outcome === 'C') drafts.push(...(await this.milestone(cache, p, ctx)));
        return drafts;
      }
      case 'enrolment.status_changed': {
        const ctx = await this.enrolmentContext(t, str(d.enrolmentId));
        return this.toLearner(cache, p, 'programme_complete', str(d.learnerId), {
          'programme.name': ctx?.programmeName ?? str(d.programmeCode),
        });
      }
      case 'evidence.reviewed': {
        const e = await repos.evidence.findById(t, str(d.evidenceId));
        const module = await this.moduleName(t, e?.enrolmentId ?? null, str(d.moduleId));
        const approved = d.status === 'approved';
        return this.toLearner(cache, p, approved ? 'evidence_approved' : 'evidence_revision', str(d.learnerId), {
          'evidence.type': (e?.evidenceType ?? 'evidence').replace(/_/g, ' '),
          'module.name': module,
          ...(approved ? {} : { 'evidence.feedback': str(d.feedback) || "See the reviewer's notes." }),
        });
      }
      case 'evidence.uploaded': {
        const learner = await repos.learners.findById(t, str(d.learnerId));
        if (!learner) return [];
        const ctx = await this.enrolmentContext(t, str(d.enrolmentId));
        return this.toStaff(cache, p, 'new_evidence', ['assessor'], {
          'learner.firstName': learner.firstName,
          'learner.lastName': learner.lastName,
          'evidence.type': str(d.evidenceType).replace(/_/g, ' ') || 'evidence',
          'module.name': ctx?.modules.find((m) => m.code === d.moduleId)?.name ?? str(d.moduleId),
          'programme.name': ctx?.programmeName ?? '',
          actionUrl: this.service.dashboardUrl('/evidence'),
        });
      }
      case SAMPLE_DRAWN_EVENT: {
        // An empty sample leaves nothing to moderate: nobody is told.
        if (!(Number(d.count) > 0)) return [];
        const programme = await repos.programmes.findById(t, str(d.programmeId));
        return this.toStaff(cache, p, 'moderation_due', ['moderator'], {
          'programme.name': programme?.name ?? str(d.programmeCode),
          'sample.size': String(d.count ?? ''),
          'deadline.date': str(d.dueBy),
          actionUrl: this.service.dashboardUrl('/'),
        });
      }
      case QUOTA_EVENT:
        return this.toStaff(cache, p, 'quota_warning', ['admin'], {
          'quota.percent': String(d.percent ?? ''),
          actionUrl: this.service.dashboardUrl('/'),
        });
      case 'export.ready': {
        const drafts = await this.toStaff(cache, p, 'export_complete', ['admin'], {
          'export.type': str(d.type),
          actionUrl: this.service.dashboardUrl('/exports'),
        });
        // The staff user who asked for it in the dashboard hears that their report is ready.
        const e = await repos.exports.findById(t, str(d.exportId));
        const asker = e ? await repos.staffCredentials.findById(t, e.createdBy) : null;
        if (
          asker &&
          asker.status === 'active' &&
          wants(asker, 'report_ready') &&
          (await this.on(cache, t, 'report_ready'))
        )
          drafts.push(
            this.draft(p, 'report_ready', userRecipient(asker), 'email', {
              'report.name': `${str(d.type)} export${e?.fileName ? ` (${e.fileName})` : ''}`,
              actionUrl: this.service.dashboardUrl('/exports'),
            }),
          );
        return drafts;
      }
      case USER_INVITED_EVENT:
        return this.invitation(p, cache);
      case SECURITY_EVENT:
        return this.toStaff(cache, p, 'security_alert', ['admin'], {
          'alert.summary':
            d.action === 'refused'
              ? `${String(d.count)} requests with a refused API key${d.keyName ? ` (one of yours: "${str(d.keyName)}", revoked or expired)` : ''} came from ${str(d.ip)} within 10 minutes.`
              : `The API key "${str(d.keyName)}"${d.role ? ` (role ${str(d.role)})` : ''} was ${str(d.action)}.`,
          actionUrl: this.service.dashboardUrl('/keys'),
        });
      case WEBHOOK_DISABLED_EVENT:
        return this.toStaff(cache, p, 'webhook_disabled', ['admin'], {
          'webhook.url': str(d.url),
          actionUrl: this.service.dashboardUrl('/webhooks'),
        });
      default:
        return [];
    }
  }

  /**
   * The invitation of a new staff user: a one-time set-password link (valid `SET_PASSWORD_HOURS`). The token is
   * derived from the event by the signer, so a job that runs twice stores the same token and sends one mail; the
   * mail's content is dropped once it is sent (it holds the link).
   */
  private async invitation(p: TriggerPayload, cache: RunCache): Promise<Draft[]> {
    if (!(await this.on(cache, p.tenantId, 'user_invited'))) return [];
    const repos = this.d.repos;
    const user = await repos.staffCredentials.findById(p.tenantId, str(p.data.userId));
    if (!user || user.passwordHash || user.status !== 'active') return [];
    const token = `${user.id}.${this.d.signer.sign(p.eventId, 'user-invitation').split('.')[1]}`;
    const expires = new Date(this.d.clock.now().getTime() + SET_PASSWORD_HOURS * 3_600_000).toISOString();
    // One conditional write of the token alone: a deactivation or a password set since the read above stays.
    const stored = await repos.staffCredentials.storeSetPasswordToken(p.tenantId, user.id, {
      hash: sha256(token),
      expiresAt: expires,
      at: this.d.clock.now().toISOString(),
      onlyWithoutPassword: true,
    });
    if (!stored) return [];
    const by = str(p.data.invitedBy);
    const inviter =
      (await repos.staffCredentials.findById(p.tenantId, by))?.name ??
      (await repos.apiKeys.listByTenant(p.tenantId)).find((k) => k.id === by)?.name ??
      'An administrator';
    return [
      this.draft(p, 'user_invited', userRecipient(user), 'email', {
        'inviter.name': inviter,
        actionUrl: this.service.dashboardUrl(`/set-password?token=${encodeURIComponent(token)}`),
      }),
    ];
  }

  private async enrolmentContext(
    tenantId: string,
    enrolmentId: string,
  ): Promise<{
    enrolment: EnrolmentSnapshot;
    programmeName: string;
    modules: { code: string; name: string }[];
  } | null> {
    if (!enrolmentId) return null;
    const enrolment = await this.d.repos.enrolments.findById(tenantId, enrolmentId);
    if (!enrolment) return null;
    const programme = await this.d.repos.programmes.findById(tenantId, enrolment.programmeId);
    return programme ? { enrolment, programmeName: programme.name, modules: programme.modules } : null;
  }

  private async moduleName(tenantId: string, enrolmentId: string | null, code: string): Promise<string> {
    const ctx = enrolmentId ? await this.enrolmentContext(tenantId, enrolmentId) : null;
    return ctx?.modules.find((m) => m.code === code)?.name ?? code;
  }

  /** WhatsApp only: the learner has half of the programme's modules competent (once per enrolment). */
  private async milestone(
    cache: RunCache,
    p: TriggerPayload,
    ctx: { enrolment: EnrolmentSnapshot; programmeName: string; modules: { code: string }[] },
  ): Promise<Draft[]> {
    if (ctx.modules.length < 2) return [];
    const done = await this.d.repos.assessments.summativeForEnrolments(p.tenantId, [ctx.enrolment.id]);
    const competent = new Set(done.filter((a) => a.outcome === 'C').map((a) => a.moduleCode));
    if (competent.size < Math.ceil(ctx.modules.length / 2)) return [];
    const drafts = await this.toLearner(
      cache,
      p,
      'programme_milestone',
      ctx.enrolment.learnerId,
      { 'milestone.name': 'half of the modules competent', 'programme.name': ctx.programmeName },
      ['whatsapp'],
    );
    // Once per enrolment, whichever assessment got there.
    return drafts.map((x) => ({ ...x, dedupeKey: `programme_milestone:half:${ctx.enrolment.id}:${x.channel}` }));
  }

  /**
   * The learner's notifications of a trigger: email (skipped with the reason when opted out or without an address),
   * and WhatsApp where the template has a WhatsApp version and the learner has a mobile number (skipped with the
   * reason when they gave no consent).
   */
  private async toLearner(
    cache: RunCache,
    p: TriggerPayload,
    key: TemplateKey,
    learnerId: string,
    values: Partial<Record<TemplateVariable, string>>,
    channels: readonly ('email' | 'whatsapp')[] = ['email', 'whatsapp'],
  ): Promise<Draft[]> {
    if (!(await this.on(cache, p.tenantId, key))) return [];
    const learner: LearnerSnapshot | null = cache.learners.has(learnerId)
      ? cache.learners.get(learnerId)!
      : await this.d.repos.learners.findById(p.tenantId, learnerId);
    if (!learner) return [];
    const def = this.service.definition(key);
    const r = learnerRecipient(learner);
    const use = channels.filter((c) =>
      c === 'email' ? def.email !== null : def.whatsapp !== null && r.mobile !== null,
    );
    return use.map((channel) => this.draft(p, key, r, channel, values));
  }

  private async toStaff(
    cache: RunCache,
    p: TriggerPayload,
    key: TemplateKey,
    roles: Role[],
    values: Partial<Record<TemplateVariable, string>>,
  ): Promise<Draft[]> {
    if (!(await this.on(cache, p.tenantId, key))) return [];
    const staff = await staffFor(this.d.repos, p.tenantId, roles, key);
    return staff.map((r) => this.draft(p, key, r, 'email', values));
  }

  private draft(
    p: TriggerPayload,
    key: TemplateKey,
    recipient: Recipient,
    channel: 'email' | 'whatsapp',
    values: Partial<Record<TemplateVariable, string>>,
  ): Draft {
    return {
      recipient,
      channel,
      template: key,
      values: new Map(Object.entries(values).filter(([, v]) => v) as [TemplateVariable, string][]),
      trigger: key,
      dedupeKey: `${key}:${p.eventId}:${recipient.id}:${channel}`,
      createdBy: 'system',
    };
  }
}

import {
  DomainError,
  newId,
  type NotificationChannel,
  type NotificationContent,
  type NotificationFilter,
  type NotificationSnapshot,
  type NotificationState,
  type PageRequest,
  type TenantSnapshot,
} from '@fundi/domain';
import { enqueueJob, jobType } from '../jobs/job-definition.js';
import type { Actor } from '../common/actor.js';
import { builtInTemplate, type TemplateDefinition, type TemplateKey } from './built-in-templates.js';
import type { NotificationPorts } from './notification-ports.js';
import { notificationView, type NotificationView } from './notification-view.js';
import { findRecipient, findRecipients, skipReason, type Recipient } from './recipients.js';
import { templateValues, type TemplateValues, type TemplateVariable } from './template-variables.js';
import { renderEmail, renderWhatsApp, type EmailTemplate } from './templates.js';
import type { DashboardPath } from './dashboard-pages.js';

/** Sends queued notifications: `ids` of one tenant, sent together (a bulk send or one trigger's fan-out). */
export const SEND_NOTIFICATIONS = jobType<{ tenantId: string; ids: string[] }>('notifications.send', 'short', {
  maxAttempts: 5,
  priority: 'background',
});

/** Notifications per send job: a bulk send of 1,000 becomes 10 jobs that run side by side. */
export const SEND_BATCH = 100;
/** Recipients of one bulk request. */
export const MAX_BULK_RECIPIENTS = 1000;

export const OPEN_PURPOSE = 'notification-open';
export const UNSUBSCRIBE_PURPOSE = 'notification-unsubscribe';

export interface SendRequest {
  recipientId?: string;
  learnerId?: string;
  channel: NotificationChannel;
  template: string;
  variables?: Record<string, unknown>;
}

export interface BulkSendRequest {
  recipientIds: string[];
  channel: NotificationChannel;
  template: string;
  variables?: Record<string, unknown>;
}

/** One notification to make: who, how, which template with which values, and whether a trigger sends it. */
export interface Draft {
  recipient: Recipient;
  channel: NotificationChannel;
  template: TemplateKey;
  values: TemplateValues;
  trigger: string | null;
  dedupeKey: string | null;
  createdBy: string;
  /** The learner a message to staff is about (see `NotificationSnapshot.learnerId`); a learner recipient is implied. */
  about?: string;
}

/** What rendering needs of a tenant, read once per batch of drafts. */
interface TenantContext {
  tenant: TenantSnapshot;
  overrides: Map<string, EmailTemplate>;
  whatsappNames: Record<string, { name: string; language: string }>;
}

export const hist = (status: NotificationState, at: string, detail: string | null = null) => ({ status, at, detail });

/**
 * Notifications by email and WhatsApp (docs/api.md, "Notifications"): what is sent to whom, rendered and queued
 * (through the API, or for a trigger), and reading them back. Sending and what providers report afterwards is
 * `NotificationDelivery`'s.
 */
export class NotificationService {
  constructor(private readonly d: NotificationPorts) {}

  private now(): Date {
    return this.d.clock.now();
  }

  // ---- sending through the API -------------------------------------------------------------------------------

  /** One notification to a staff user or a learner; 202 with the record (queued, or skipped with the reason). */
  async send(actor: Actor, req: SendRequest): Promise<NotificationView> {
    const id = req.learnerId ?? req.recipientId;
    if (!id) throw DomainError.invalid('recipientId', 'is required (or learnerId)');
    const field = req.learnerId ? 'learnerId' : 'recipientId';
    const recipient = await findRecipient(this.d.repos, actor.tenantId, id, field, req.learnerId ? 'learner' : 'any');
    const [n] = await this.create(actor.tenantId, this.apiDrafts(actor, [recipient], req), { strict: true });
    return notificationView(n!);
  }

  /** The same template to many recipients (at most 1,000); every id must exist, or nothing is sent. */
  async sendBulk(actor: Actor, req: BulkSendRequest): Promise<{ data: NotificationView[] }> {
    if (req.recipientIds.length === 0) throw DomainError.invalid('recipientIds', 'must name at least one recipient');
    if (req.recipientIds.length > MAX_BULK_RECIPIENTS)
      throw DomainError.invalid('recipientIds', `must name at most ${MAX_BULK_RECIPIENTS} recipients`);
    const seen = new Set<string>();
    const dup = req.recipientIds.findIndex((x) => seen.size === seen.add(x).size);
    if (dup >= 0) throw DomainError.invalid(`recipientIds.${dup}`, 'names a recipient twice');
    const recipients = await findRecipients(this.d.repos, actor.tenantId, req.recipientIds);
    const made = await this.create(actor.tenantId, this.apiDrafts(actor, recipients, req), { strict: true });
    return { data: made.map(notificationView) };
  }

  private apiDrafts(
    actor: Actor,
    recipients: Recipient[],
    req: Omit<SendRequest, 'recipientId' | 'learnerId'>,
  ): Draft[] {
    if (req.channel !== 'email' && req.channel !== 'whatsapp')
      throw DomainError.invalid('channel', 'must be email or whatsapp');
    const def = builtInTemplate(req.template);
    if (!def[req.channel])
      throw DomainError.invalid('template', `${def.key} has no ${req.channel} version`, 'template_channel');
    const values = templateValues(req.variables ?? {});
    return recipients.map((recipient) => ({
      recipient,
      channel: req.channel,
      template: def.key,
      values,
      trigger: null,
      dedupeKey: null,
      createdBy: actor.id,
    }));
  }

  /**
   * Makes the notifications of `drafts` (rendered now; skipped where the recipient cannot be reached), leaves out
   * those whose dedupe key exists, and queues the send jobs, all in one transaction. `strict`: a template that
   * cannot be rendered is invalid input (API sends); otherwise the notification is skipped with the reason (triggers).
   */
  async create(tenantId: string, drafts: readonly Draft[], o: { strict: boolean }): Promise<NotificationSnapshot[]> {
    if (drafts.length === 0) return [];
    const ctx = await this.tenantContext(tenantId);
    const now = this.now();
    const rows = drafts.map((dr) => this.build(ctx, dr, now, o.strict));
    return this.d.uow.run(async (tx) => {
      const inserted = await tx.notifications.insertMany(rows);
      const queued = inserted.filter((n) => n.status === 'queued').map((n) => n.id);
      for (let i = 0; i < queued.length; i += SEND_BATCH) {
        const ids = queued.slice(i, i + SEND_BATCH);
        await enqueueJob(tx.jobs, SEND_NOTIFICATIONS, { tenantId, ids }, { now, key: `notify-send:${ids[0]}` });
      }
      return inserted;
    });
  }

  private async tenantContext(tenantId: string): Promise<TenantContext> {
    const [tenant, overrides, settings] = await Promise.all([
      this.d.repos.tenants.findById(tenantId),
      this.d.repos.notificationTemplates.list(tenantId),
      this.d.repos.notificationSettings.get(tenantId),
    ]);
    if (!tenant) throw DomainError.notFound('tenant', tenantId);
    return {
      tenant,
      overrides: new Map(overrides.map((t) => [t.key, t])),
      whatsappNames: settings?.whatsapp?.templates ?? {},
    };
  }

  /** The values every notification has without the caller saying: the organisation, and the recipient's names. */
  private valuesFor(ctx: TenantContext, dr: Draft): TemplateValues {
    const v = new Map<TemplateVariable, string>(dr.values);
    const set = (k: TemplateVariable, x: string | null | undefined) => {
      if (!v.has(k) && x) v.set(k, x);
    };
    set('organisation.name', ctx.tenant.name);
    if (dr.recipient.type === 'learner') {
      set('learner.firstName', dr.recipient.firstName);
      set('learner.lastName', dr.recipient.lastName);
      set('learner.email', dr.recipient.email);
    } else set('recipient.firstName', dr.recipient.firstName);
    return v;
  }

  private build(ctx: TenantContext, dr: Draft, now: Date, strict: boolean): NotificationSnapshot {
    const at = now.toISOString();
    const base = {
      id: newId('ntf', now.getTime()),
      tenantId: ctx.tenant.id,
      recipientType: dr.recipient.type,
      recipientId: dr.recipient.id,
      channel: dr.channel,
      template: dr.template,
      learnerId: dr.about ?? (dr.recipient.type === 'learner' ? dr.recipient.id : null),
      attempts: 0,
      providerMessageId: null,
      trigger: dr.trigger,
      dedupeKey: dr.dedupeKey,
      createdBy: dr.createdBy,
      createdAt: at,
      updatedAt: at,
    };
    const skipped = (why: string): NotificationSnapshot => ({
      ...base,
      to: null,
      content: null,
      status: 'skipped',
      history: [hist('skipped', at, why)],
    });
    const why = skipReason(dr.recipient, dr.channel);
    if (why) return skipped(why);
    let content: NotificationContent;
    try {
      content = this.render(ctx, dr, base.id);
    } catch (e) {
      if (strict || !(e instanceof DomainError)) throw e;
      return skipped(`the template could not be rendered: ${e.message}`);
    }
    return {
      ...base,
      to: dr.channel === 'email' ? dr.recipient.email : dr.recipient.mobile,
      content,
      status: 'queued',
      history: [hist('queued', at)],
    };
  }

  private render(ctx: TenantContext, dr: Draft, id: string): NotificationContent {
    const def = builtInTemplate(dr.template);
    const values = this.valuesFor(ctx, dr);
    if (dr.channel === 'whatsapp') {
      const wa = def.whatsapp;
      if (!wa) throw DomainError.invalid('template', `${def.key} has no whatsapp version`, 'template_channel');
      const named = ctx.whatsappNames[def.key];
      const r = renderWhatsApp(named ? { ...wa, ...named } : wa, values);
      return { kind: 'whatsapp', ...r };
    }
    const t = ctx.overrides.get(def.key) ?? def.email;
    if (!t) throw DomainError.invalid('template', `${def.key} has no email version`, 'template_channel');
    const r = renderEmail(t, values);
    const pixel = this.d.settings.publicUrl
      ? `\n<img src="${this.d.settings.publicUrl}/api/v1/notifications/opened/${this.d.signer.sign(`${ctx.tenant.id}:${id}`, OPEN_PURPOSE)}" width="1" height="1" alt="" style="display:none">`
      : '';
    return { kind: 'email', subject: r.subject, html: r.html + pixel, text: r.text };
  }

  // ---- reading ---------------------------------------------------------------------------------------------------

  async get(actor: Actor, id: string): Promise<NotificationView> {
    const n = await this.d.repos.notifications.findById(actor.tenantId, id);
    if (!n) throw DomainError.notFound('notification', id);
    return notificationView(n);
  }

  async list(actor: Actor, filter: NotificationFilter, page: PageRequest) {
    const p = await this.d.repos.notifications.list(actor.tenantId, filter, page);
    return { ...p, items: p.items.map(notificationView) };
  }

  /** A link into the dashboard (staff and admin notifications): one of its pages, which it serves. */
  dashboardUrl(path: DashboardPath): string {
    return `${this.d.settings.publicUrl}/dashboard${path}`;
  }

  /** A page of the learner portal (`/learn`), for links sent to learners. */
  portalUrl(path: string): string {
    return `${this.d.settings.publicUrl}/learn${path}`;
  }

  /** Which template definition a key is (for the routes' and the dashboard's lists). */
  definition(key: string): TemplateDefinition {
    return builtInTemplate(key);
  }
}

import { DomainError, newId, type TenantSnapshot } from '@fundi/domain';
import type { NotificationContent, NotificationSnapshot } from '@fundi/domain/notifications';
import { enqueueJobs } from '../jobs/job-definition.js';
import type { NotificationPorts } from './notification-ports.js';
import { portalUrl } from './dashboard-pages.js';
import { skipReason } from './recipients.js';
import { catalogueOf } from './trigger-catalogue.js';
import type { TemplateValues, TemplateVariable } from './template-variables.js';
import { renderEmail, renderWhatsApp, type EmailTemplate } from './templates.js';
import { OPEN_PURPOSE, SEND_BATCH, SEND_NOTIFICATIONS, hist, type Draft } from './notification-drafts.js';

/** What rendering needs of a tenant, read once per batch of drafts. */
interface TenantContext {
  tenant: TenantSnapshot;
  overrides: Map<string, EmailTemplate>;
  whatsappNames: Record<string, { name: string; language: string }>;
}

/**
 * Makes the notifications of `drafts` (rendered now; skipped where the recipient cannot be reached), leaves out
 * those whose dedupe key exists, and queues the send jobs, all in one transaction. `strict`: a template that
 * cannot be rendered is invalid input (API sends); otherwise the notification is skipped with the reason (triggers).
 */
export class CreateNotifications {
  constructor(private readonly d: NotificationPorts) {}

  async execute(tenantId: string, drafts: readonly Draft[], o: { strict: boolean }): Promise<NotificationSnapshot[]> {
    if (drafts.length === 0) return [];
    const ctx = await this.tenantContext(tenantId);
    const now = this.d.clock.now();
    const rows = drafts.map((dr) => this.build(ctx, dr, now, o.strict));
    return this.d.uow.run(async (tx) => {
      const inserted = await tx.notifications.insertMany(rows);
      const queued = inserted.filter((n) => n.status === 'queued').map((n) => n.id);
      // The send jobs of SEND_BATCH notifications each, in one statement (a bulk call of 1,000 queues 10).
      const sends: { payload: { tenantId: string; ids: string[] }; key: string }[] = [];
      for (let i = 0; i < queued.length; i += SEND_BATCH) {
        const ids = queued.slice(i, i + SEND_BATCH);
        sends.push({ payload: { tenantId, ids }, key: `notify-send:${ids[0]}` });
      }
      await enqueueJobs(tx.jobs, SEND_NOTIFICATIONS, sends, now);
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
      // A learner's message links to their portal page unless its trigger chose a page (docs/api.md, "Notifications").
      set('actionUrl', portalUrl(this.d, `?tenant=${encodeURIComponent(ctx.tenant.slug)}`));
      set('learner.firstName', dr.recipient.firstName);
      set('learner.lastName', dr.recipient.lastName);
      set('learner.email', dr.recipient.email);
    } else set('recipient.firstName', dr.recipient.firstName);
    return v;
  }

  private build(ctx: TenantContext, dr: Draft, now: Date, strict: boolean): NotificationSnapshot {
    const at = now.toISOString();
    const id = newId('ntf', now.getTime());
    const why = skipReason(dr.recipient, dr.channel);
    if (why) return notification(ctx, dr, id, at, null, null, hist('skipped', at, why));
    let content: NotificationContent;
    try {
      content = this.render(ctx, dr, id);
    } catch (e) {
      if (strict || !(e instanceof DomainError)) throw e;
      const said = `the template could not be rendered: ${e.message}`;
      return notification(ctx, dr, id, at, null, null, hist('skipped', at, said));
    }
    const to = dr.channel === 'email' ? dr.recipient.email : dr.recipient.mobile;
    return notification(ctx, dr, id, at, to, content, hist('queued', at));
  }

  private render(ctx: TenantContext, dr: Draft, id: string): NotificationContent {
    const catalogue = catalogueOf(this.d);
    const def = catalogue.template(dr.template);
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
    const r = renderEmail(t, values, catalogue);
    const pixel = this.d.settings.publicUrl
      ? `\n<img src="${this.d.settings.publicUrl}/api/v1/notifications/opened/${this.d.signer.sign(`${ctx.tenant.id}:${id}`, OPEN_PURPOSE)}" width="1" height="1" alt="" style="display:none">`
      : '';
    return { kind: 'email', subject: r.subject, html: r.html + pixel, text: r.text };
  }
}

/**
 * A new notification, queued with its content and address or skipped without them (`first` says which). Written as
 * one literal, not a spread of common fields plus the rest: a bulk send makes 1,000 at once, and the spread copied
 * each one's fields into a second object of another shape.
 */
function notification(
  ctx: TenantContext,
  dr: Draft,
  id: string,
  at: string,
  to: string | null,
  content: NotificationContent | null,
  first: NotificationSnapshot['history'][number],
): NotificationSnapshot {
  return {
    id,
    tenantId: ctx.tenant.id,
    recipientType: dr.recipient.type,
    recipientId: dr.recipient.id,
    channel: dr.channel,
    template: dr.template,
    learnerId: dr.about ?? (dr.recipient.type === 'learner' ? dr.recipient.id : null),
    to,
    content,
    status: first.status === 'queued' ? 'queued' : 'skipped',
    history: [first],
    attempts: 0,
    providerMessageId: null,
    trigger: dr.trigger,
    dedupeKey: dr.dedupeKey,
    createdBy: dr.createdBy,
    createdAt: at,
    updatedAt: at,
  };
}

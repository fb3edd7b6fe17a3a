import { SAMPLE_DRAWN_EVENT } from '../assessments/draw-moderation-sample.js';
import { nextTurn } from '../common/next-turn.js';
import { LOGBOOK_EVENTS } from '../logbooks/logbook-deps.js';
import { USER_INVITED_EVENT } from '../staff/staff-directory.js';
import { SECURITY_EVENT } from '../tenants/api-key-events.js';
import { invitation } from './account-messages.js';
import { securityAlert } from './security-messages.js';
import type { CreateNotifications } from './create-notifications.js';
import { assessmentResult, programmeComplete, welcome } from './learner-messages.js';
import { logbookSignOff } from './logbook-messages.js';
import type { Draft } from './notification-drafts.js';
import type { NotificationPorts } from './notification-ports.js';
import { moderationDue, quotaWarning, webhookDisabled } from './staff-messages.js';
import { str, type RunCache, type TriggerContext } from './trigger-drafts.js';
import { catalogueOf, type TriggerCatalogue } from './trigger-catalogue.js';
import { triggerRun } from './trigger-run.js';
import { QUOTA_EVENT, WEBHOOK_DISABLED_EVENT, expandTriggers, type TriggerPayload } from './trigger-sources.js';

/** Events of a trigger job handled in one transaction (see `RunTriggers`). */
export const TRIGGER_SLICE = 200;

/**
 * Turns a trigger job into notifications: which template, which recipients (learner, assessors, admins), which
 * channels. A trigger the tenant turned off sends nothing; each (event, recipient, channel) has a dedupe key, so a
 * job that runs twice sends once.
 *
 * The messages themselves are made by audience: learner-messages.ts (learners), staff-messages.ts (assessors,
 * moderators, administrators), account-messages.ts (invitations, password resets, security alerts) and
 * deadline-reminders.ts; trigger-sources.ts has the events triggers react to. Other capabilities' triggers are
 * told by the sources they offer (`TriggerSource`, the `triggers` hook), through `triggerRun`.
 */
export class RunTriggers {
  private readonly c: TriggerContext;
  private readonly catalogue: TriggerCatalogue;

  constructor(d: NotificationPorts, create: CreateNotifications) {
    this.c = { d, create };
    this.catalogue = catalogueOf(d);
  }

  /**
   * The events of one trigger job, per tenant in slices of `TRIGGER_SLICE`: the learners a slice names are read in
   * one query, each tenant's switches once, and a slice's notifications are made in one transaction. The event loop
   * turns between slices, so a job of 1,000 welcomes (an import's batch) never holds the API's requests for long; a
   * job run again after a crash makes only what is missing (each notification has its dedupe key).
   */
  async execute(events: readonly TriggerPayload[]): Promise<void> {
    const byTenant = new Map<string, TriggerPayload[]>();
    for (const e of expandTriggers(events)) {
      const list = byTenant.get(e.tenantId);
      if (list) list.push(e);
      else byTenant.set(e.tenantId, [e]);
    }
    for (const [tenantId, all] of byTenant) {
      const settings: RunCache['settings'] = new Map();
      for (let i = 0; i < all.length; i += TRIGGER_SLICE) {
        if (i > 0) await nextTurn();
        await this.runSlice(tenantId, all.slice(i, i + TRIGGER_SLICE), { learners: new Map(), settings });
      }
    }
  }

  private async runSlice(tenantId: string, mine: readonly TriggerPayload[], cache: RunCache): Promise<void> {
    const ids = [
      ...new Set(
        mine.map((e) => str(e.data.learnerId) || (e.type === 'learner.created' ? str(e.data.id) : '')).filter(Boolean),
      ),
    ];
    for (const id of ids) cache.learners.set(id, null);
    for (const l of await this.c.d.repos.learners.findByIds(tenantId, ids)) cache.learners.set(l.id, l);
    const drafts: Draft[] = [];
    for (const e of mine) drafts.push(...(await this.draftsFor(e, cache)));
    await this.c.create.execute(tenantId, drafts, { strict: false });
  }

  private async draftsFor(p: TriggerPayload, cache: RunCache): Promise<Draft[]> {
    const drafts = await this.ownDraftsFor(p, cache);
    const offered = this.catalogue.sourcesOf(p.type);
    if (offered.length) {
      const run = triggerRun(this.c, cache, p);
      for (const s of offered) drafts.push(...(await s.tell(run, p, this.c.d.repos)));
    }
    return drafts;
  }

  private async ownDraftsFor(p: TriggerPayload, cache: RunCache): Promise<Draft[]> {
    const c = this.c;
    switch (p.type) {
      case 'learner.created':
        return welcome(c, cache, p);
      case 'assessment.recorded':
        return assessmentResult(c, cache, p);
      case 'enrolment.status_changed':
        return programmeComplete(c, cache, p);
      case SAMPLE_DRAWN_EVENT:
        return moderationDue(c, cache, p);
      case QUOTA_EVENT:
        return quotaWarning(c, cache, p);
      case USER_INVITED_EVENT:
        return invitation(c, cache, p);
      case SECURITY_EVENT:
        return securityAlert(c, cache, p);
      case WEBHOOK_DISABLED_EVENT:
        return webhookDisabled(c, cache, p);
      case LOGBOOK_EVENTS.submitted:
        return logbookSignOff(c, cache, p);
      default:
        return [];
    }
  }
}

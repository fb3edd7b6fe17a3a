import type { LearnerSnapshot } from '@fundi/domain/learners';
import { IMPORT_HISTORY_DAYS, type ImportMessages, type ImportNotify } from '@fundi/domain/imports';
import type { NotificationRepos } from '@fundi/domain/notifications';
import type { TemplateKey } from '../notifications/built-in-templates.js';
import type { OfferedHooks } from '../common/hooks.js';
import { catalogueOf, type TriggerCatalogue } from '../notifications/trigger-catalogue.js';

/** A message a row's write would lead to: the template and the learner it goes to (as they will be then). */
export interface MessageDue {
  template: TemplateKey;
  learner: Pick<LearnerSnapshot, 'email' | 'mobile' | 'emailOptOut' | 'whatsappConsent'>;
}

/** The first day an imported assessment may be dated and still message its learner (older ones are history). */
export const historyBefore = (now: Date) =>
  new Date(now.getTime() - IMPORT_HISTORY_DAYS * 86_400_000).toISOString().slice(0, 10);

/**
 * Counts the messages a confirm would send (docs/api.md, "Imports", "Messages"), as the notification triggers decide
 * them: nothing with `notify: none`; a template whose trigger the tenant turned off sends nothing; email where the
 * template has an email version, the learner an address and no opt-out; WhatsApp where the template has a WhatsApp
 * version, WhatsApp settings (the tenant's or the server's), and the learner a mobile number and their consent.
 */
export class MessageTally {
  private readonly counts = new Map<string, { email: number; whatsapp: number }>();
  private settings: { triggers: Record<string, boolean>; whatsapp: boolean } | null = null;
  private readonly templates: Pick<TriggerCatalogue, 'template'>;

  constructor(
    private readonly repos: Pick<NotificationRepos, 'notificationSettings'>,
    private readonly tenantId: string,
    private readonly notify: ImportNotify,
    hooks: Pick<OfferedHooks, 'triggers'> | undefined,
    private readonly whatsappByDefault = false,
  ) {
    this.templates = catalogueOf(hooks ? { hooks } : {});
  }

  async add(due: readonly MessageDue[]): Promise<void> {
    if (this.notify === 'none' || !due.length) return;
    if (!this.settings) {
      const s = await this.repos.notificationSettings.get(this.tenantId);
      this.settings = { triggers: s?.triggers ?? {}, whatsapp: Boolean(s?.whatsapp) || this.whatsappByDefault };
    }
    for (const d of due) {
      if (this.settings.triggers[d.template] === false) continue;
      const def = this.templates.template(d.template);
      const email = def.email !== null && Boolean(d.learner.email) && !d.learner.emailOptOut;
      const whatsapp =
        def.whatsapp !== null && this.settings.whatsapp && Boolean(d.learner.mobile) && d.learner.whatsappConsent;
      if (!email && !whatsapp) continue;
      let c = this.counts.get(d.template);
      if (!c) this.counts.set(d.template, (c = { email: 0, whatsapp: 0 }));
      if (email) c.email++;
      if (whatsapp) c.whatsapp++;
    }
  }

  result(): ImportMessages {
    const templates = [...this.counts].map(([template, c]) => ({ template, ...c }));
    return {
      email: templates.reduce((n, t) => n + t.email, 0),
      whatsapp: templates.reduce((n, t) => n + t.whatsapp, 0),
      templates,
    };
  }
}

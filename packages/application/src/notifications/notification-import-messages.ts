import type { NotificationRepos } from '@fundi/domain/notifications';
import { countsOf, type ConfirmMessages } from '../imports/import-messages.js';
import { catalogueOf } from './trigger-catalogue.js';

/**
 * The notifications' offer to the imports' dry run (`importMessages`, docs/api.md, "Imports", "Messages a confirm
 * will send"): what a confirm would send, as the triggers decide it. Nothing with `notify: none`; a template whose
 * trigger the tenant turned off sends nothing; email where the template has an email version, the learner an address
 * and no opt-out; WhatsApp where the template has a WhatsApp version, WhatsApp settings (the tenant's, or the
 * server's where `whatsappByDefault`), and the learner a mobile number and their consent.
 */
export function importMessageCount(
  whatsappByDefault: boolean,
): ConfirmMessages<Pick<NotificationRepos, 'notificationSettings'>> {
  return {
    async count(repos, hooks, run, due) {
      const counts = new Map<string, { email: number; whatsapp: number }>();
      if (run.notify === 'none' || !due.length) return countsOf(counts);
      const s = await repos.notificationSettings.get(run.tenantId);
      const off = s?.triggers ?? {};
      const whatsappOn = Boolean(s?.whatsapp) || whatsappByDefault;
      const templates = catalogueOf({ hooks });
      for (const d of due) {
        if (off[d.template] === false) continue;
        const def = templates.template(d.template);
        const email = def.email !== null && Boolean(d.learner.email) && !d.learner.emailOptOut;
        const whatsapp = def.whatsapp !== null && whatsappOn && Boolean(d.learner.mobile) && d.learner.whatsappConsent;
        if (!email && !whatsapp) continue;
        let c = counts.get(d.template);
        if (!c) counts.set(d.template, (c = { email: 0, whatsapp: 0 }));
        if (email) c.email++;
        if (whatsapp) c.whatsapp++;
      }
      return countsOf(counts);
    },
  };
}

import { signOffToken } from '../logbooks/logbook-deps.js';
import { portalUrl } from './dashboard-pages.js';
import type { Draft } from './notification-drafts.js';
import type { Recipient } from './recipients.js';
import { draft, str, type RunCache, type TriggerContext } from './trigger-drafts.js';
import type { TriggerPayload } from './trigger-sources.js';

/**
 * A logbook entry was submitted: its supervisor gets the signed sign-off link (docs/api.md, "Logbooks"), by email
 * when they have an address, else by WhatsApp. The message is filed under the learner it is about, so the learner's
 * erasure finds it; it goes to the supervisor's address.
 */
export async function logbookSignOff(c: TriggerContext, cache: RunCache, p: TriggerPayload): Promise<Draft[]> {
  const learner = cache.learners.get(str(p.data.learnerId));
  const entry = await c.d.repos.logbookEntries.findById(p.tenantId, str(p.data.entryId));
  // Changed or answered since: this submission's link would not work, so it is not sent.
  if (!learner || !entry || entry.status !== 'submitted' || entry.submittedAt !== str(p.data.submittedAt)) return [];
  const [first, ...rest] = entry.supervisor.name.split(/\s+/);
  const to: Recipient = {
    type: 'learner',
    id: learner.id,
    firstName: first ?? entry.supervisor.name,
    lastName: rest.join(' '),
    email: entry.supervisor.email,
    mobile: entry.supervisor.mobile,
    learner: null,
    user: null,
  };
  const url = portalUrl(c.d, `/sign-off?token=${encodeURIComponent(signOffToken(c.d.signer, entry))}`);
  return [
    draft(p, 'logbook_sign_off', to, entry.supervisor.email ? 'email' : 'whatsapp', {
      'recipient.firstName': to.firstName,
      'learner.firstName': `${learner.firstName} ${learner.lastName}`,
      actionUrl: url,
    }),
  ];
}

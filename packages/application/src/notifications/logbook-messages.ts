import { signOffToken } from '../logbooks/logbook-deps.js';
import { portalUrl } from './dashboard-pages.js';
import type { Draft } from './notification-drafts.js';
import type { Recipient } from './recipients.js';
import { draft, str, type RunCache, type TriggerContext } from './trigger-drafts.js';
import type { TriggerPayload } from './trigger-sources.js';

/**
 * A logbook entry was submitted: its supervisor gets the signed sign-off link of the entry's sign-off request
 * (docs/api.md, "Logbooks"), by email when they have an address, else by WhatsApp. Entries submitted together share
 * one request and so one message: it is sent on the event of the request's first entry still waiting, and the other
 * entries' events send nothing. The message is filed under the learner it is about, so the learner's erasure finds
 * it; it goes to the supervisor's address.
 */
export async function logbookSignOff(c: TriggerContext, cache: RunCache, p: TriggerPayload): Promise<Draft[]> {
  const learner = cache.learners.get(str(p.data.learnerId));
  const entry = await c.d.repos.logbookEntries.findById(p.tenantId, str(p.data.entryId));
  // Changed or answered since: this submission's link would not work, so it is not sent.
  if (!learner || !entry || entry.status !== 'submitted' || entry.submittedAt !== str(p.data.submittedAt)) return [];
  let request: { tenantId: string; id: string; submittedAt: string | null } = entry;
  if (entry.submissionId) {
    const together = await c.d.repos.logbookEntries.listBySubmission(p.tenantId, entry.submissionId);
    const waiting = together.filter((e) => e.status === 'submitted' && e.submittedAt === entry.submittedAt);
    if (waiting[0]?.id !== entry.id) return [];
    request = { tenantId: entry.tenantId, id: entry.submissionId, submittedAt: entry.submittedAt };
  }
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
  const url = portalUrl(c.d, `/sign-off?token=${encodeURIComponent(signOffToken(c.d.signer, request))}`);
  return [
    draft(p, 'logbook_sign_off', to, entry.supervisor.email ? 'email' : 'whatsapp', {
      'recipient.firstName': to.firstName,
      'learner.firstName': `${learner.firstName} ${learner.lastName}`,
      actionUrl: url,
    }),
  ];
}

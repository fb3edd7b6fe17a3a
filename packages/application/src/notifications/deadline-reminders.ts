import { jobType } from '../jobs/job-definition.js';
import { toLearner } from './learner-messages.js';
import { deadlineValues } from './learner-template-values.js';
import type { RunCache, TriggerContext } from './trigger-drafts.js';
import type { TriggerPayload } from './trigger-sources.js';

/** Daily: reminds learners whose enrolment is due to end in three days. */
export const DEADLINE_REMINDERS = jobType<Record<string, never>>('notifications.deadline_reminders', 'long', {
  maxAttempts: 3,
  priority: 'background',
});
/** Days before an enrolment's expected end date that the reminder goes out. */
export const REMINDER_DAYS = 3;

/**
 * The deadline reminders of today: every open enrolment whose expected end date is `REMINDER_DAYS` from now gets
 * one reminder per channel (the dedupe key holds the date, so a second run the same day sends nothing new).
 */
export async function remindDeadlines(c: TriggerContext): Promise<number> {
  const now = c.d.clock.now();
  const due = new Date(now.getTime() + REMINDER_DAYS * 86_400_000).toISOString().slice(0, 10);
  let after: string | null = null;
  let sent = 0;
  for (;;) {
    const page = await c.d.repos.enrolments.openDueOn(due, after, 200);
    if (page.length === 0) return sent;
    after = page.at(-1)!.id;
    for (const e of page) {
      const cache: RunCache = { learners: new Map(), settings: new Map() };
      const programme = await c.d.repos.programmes.findById(e.tenantId, e.programmeId);
      const p: TriggerPayload = {
        tenantId: e.tenantId,
        eventId: `deadline:${e.id}:${due}`,
        type: 'deadline',
        data: {},
      };
      const drafts = await toLearner(
        c,
        cache,
        p,
        'deadline_reminder',
        e.learnerId,
        deadlineValues(programme?.name ?? e.programmeCode, due),
      );
      sent += (await c.create.execute(e.tenantId, drafts, { strict: false })).length;
    }
  }
}

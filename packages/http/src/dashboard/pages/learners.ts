import type { DashboardDeps, PageRoutes } from '../dashboard-deps.js';
import { learnerList } from './learner-list.js';
import { learnerRecord } from './learner-record.js';

/** What the learner's page says after a form on it succeeded (`?done=`). */
const DONE: Record<string, string> = {
  enrolled: 'Enrolled.',
  status: 'The enrolment status is changed.',
  assessed: 'The result is recorded.',
  uploaded: 'The evidence is uploaded.',
};

/** Learners: a searchable, filtered and sortable list (`learner-list.ts`), and one learner's record with progress per module and their evidence. */
export function learnerPages(r: PageRoutes, d: DashboardDeps): void {
  r.get('/dashboard/learners', (ctx, s) => learnerList(ctx, d, s));

  r.get('/dashboard/learners/:id', async (ctx, s) => {
    const uploaded = Number.parseInt(String(ctx.query.uploaded ?? ''), 10);
    const done =
      uploaded > 0
        ? `${uploaded} file${uploaded === 1 ? '' : 's'} uploaded.`
        : typeof ctx.query.done === 'string'
          ? DONE[ctx.query.done]
          : undefined;
    return learnerRecord(d, s, ctx.params.id!, done ? { text: done } : undefined);
  });
}

import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { learnerList } from './learner-list.js';
import { sectionsIn } from '../dashboard/page-sections.js';
import { learnerRecord } from './learner-record.js';

/** What the learner's page says after a form on it succeeded (`?done=`); the sections' forms add their own. */
const DONE: Record<string, string> = {
  enrolled: 'Enrolled.',
  status: 'The enrolment status is changed.',
  assessed: 'The result is recorded.',
};

/** Learners: a searchable, filtered and sortable list (`learner-list.ts`), and one learner's record (`learner-record.ts`). */
export function learnerPages(r: PageRoutes, d: DashboardDeps): void {
  r.get('/dashboard/learners', (ctx, s) => learnerList(ctx, d, s));

  r.get('/dashboard/learners/:id', async (ctx, s) => {
    const uploaded = Number.parseInt(String(ctx.query.uploaded ?? ''), 10);
    const key = typeof ctx.query.done === 'string' ? ctx.query.done : undefined;
    const done =
      uploaded > 0
        ? `${uploaded} file${uploaded === 1 ? '' : 's'} uploaded.`
        : key
          ? (DONE[key] ?? (await sectionsIn(d, s, 'learnerRecordDone', { done: key })).find(Boolean))
          : undefined;
    return learnerRecord(d, s, ctx.params.id!, done ? { text: done } : undefined);
  });
}

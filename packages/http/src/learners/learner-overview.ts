import type { PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { can } from '../dashboard/web.js';

/** The overview's count of learners (the list's total: one row read). */
export const learnerTiles: PageSection<SlotOf<'overviewTiles'>> = {
  order: 10,
  async render(d, s) {
    const learners = can(s, 'learners:read')
      ? (await d.learners.listLearners.execute(s.actor, {}, { kind: 'offset', offset: 0, limit: 1 })).total
      : null;
    return [{ label: 'Learners', value: learners, href: '/dashboard/learners' }];
  },
};

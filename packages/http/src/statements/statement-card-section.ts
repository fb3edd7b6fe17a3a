import type { PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { statementsCard } from './statements-card.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;

/** Each enrolment's card on the learner's record: its Statements of Results with their actions. */
export const enrolmentStatements: PageSection<SlotOf<'enrolmentCard'>> = {
  order: 10,
  scope: 'enrolments:read',
  async render(d, s, at) {
    if (!d.statements) return null;
    const statements = await d.statements.listStatements.execute(s.actor, at.learnerId, ALL);
    return (enrolmentId) => statementsCard(s, at.learnerId, enrolmentId, statements.items);
  },
};

import type { SessionContext } from '@fundi/application/staff';
import type { DashboardDeps, PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { html } from '../dashboard/html.js';
import { statementsCard } from './statements-card.js';
import type { EnrolmentRecordAt } from '../training/enrolment-record-slots.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;

/** The enrolment's statements (of the learner's, read once for its page and its history); null when not served. */
async function mine(d: DashboardDeps, s: SessionContext, at: EnrolmentRecordAt) {
  if (!d.statements) return null;
  const statements = d.statements;
  const all = await at.once('statements', () =>
    statements.listStatements.execute(s.actor, at.enrolment.learnerId, ALL),
  );
  return all.items.filter((x) => x.enrolmentId === at.enrolment.id);
}

/** An enrolment's page: its Statements of Results with their actions. */
export const enrolmentStatementsCard: PageSection<SlotOf<'enrolmentRecord'>> = {
  order: 20,
  async render(d, s, at) {
    const found = await mine(d, s, at);
    const e = at.enrolment;
    return found && html`<div class="card">${statementsCard(s, e.learnerId, e.id, found, 'enrolment')}</div>`;
  },
};

/** The enrolment's history covers its statements. */
export const statementIds: PageSection<SlotOf<'enrolmentRecordIds'>> = {
  order: 30,
  async render(d, s, at) {
    return (await mine(d, s, at))?.map((x) => x.id) ?? null;
  },
};

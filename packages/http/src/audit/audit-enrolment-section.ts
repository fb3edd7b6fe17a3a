import type { PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { html, when } from '../dashboard/html.js';
import { sectionsIn } from '../dashboard/page-sections.js';
import { historyTable } from './history-table.js';
import { zoneOf } from '../dashboard/web.js';

/** An enrolment's page: the latest 25 changes to the enrolment and to the records that belong to it. */
export const enrolmentHistory: PageSection<SlotOf<'enrolmentRecord'>> = {
  order: 30,
  scope: 'audit:read',
  async render(d, s, at) {
    if (!d.audit) return null;
    const e = at.enrolment;
    const belonging = await sectionsIn(d, s, 'enrolmentRecordIds', at);
    const entityIds = [e.id, ...belonging.flatMap((ids) => ids ?? [])];
    const audit = await d.audit.list(s.actor, { entityIds }, { kind: 'offset', offset: 0, limit: 25 });
    return html`<h2>History</h2>${historyTable(audit.items, zoneOf(s))}${when(audit.hasMore, () => html`<p><a href="/dashboard/audit?learnerId=${e.learnerId}">The learner's whole history</a></p>`)}`;
  },
};

import type { PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { html, when } from '../dashboard/html.js';
import { historyTable } from './history-table.js';
import { zoneOf } from '../dashboard/web.js';

/** The learner's record: the latest 25 changes to their records, with a link to the whole history. */
export const learnerHistory: PageSection<SlotOf<'learnerRecord'>> = {
  order: 60,
  scope: 'audit:read',
  async render(d, s, at) {
    if (!d.audit) return null;
    const l = at.learner;
    const changes = await d.audit.learnerHistory(s.actor, l.id, {}, { kind: 'offset', offset: 0, limit: 25 });
    return html`<h2>History</h2>${historyTable(changes.items, zoneOf(s))}${when(changes.hasMore, () => html`<p><a href="/dashboard/audit?learnerId=${l.id}">The whole history</a></p>`)}`;
  },
};

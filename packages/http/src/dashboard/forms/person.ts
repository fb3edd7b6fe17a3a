import type { LearnerName } from '@fundi/application/learners';
import type { SessionContext } from '@fundi/application/staff';
import type { DashboardDeps } from '../dashboard-deps.js';
import { html, type Html } from '../html.js';
import { can } from '../web.js';

/** The names of the learners a list refers to (one read), or none for a role that may not read learners. */
export async function namesFor(
  d: DashboardDeps,
  s: SessionContext,
  ids: readonly string[],
): Promise<Map<string, LearnerName>> {
  return can(s, 'learners:read') ? d.learners.learnerNames.execute(s.actor, ids) : new Map();
}

/** A learner as a person: their name (a link to their record) and ID number; never the internal id. */
export function person(names: Map<string, LearnerName>, id: string): Html {
  const n = names.get(id);
  if (!n) return html`<span class="muted">learner not shown (erased, or not yours to read)</span>`;
  return html`<a href="/dashboard/learners/${id}">${n.name}</a>${n.idNumber ? html` <span class="muted nowrap">${n.idNumber}</span>` : null}`;
}

import type { SessionContext } from '@fundi/application/staff';
import { WATCH_DAYS, watchWindow } from '@fundi/application/training';
import { dayStartIn } from '@fundi/domain';
import type { EnrolmentAtRisk } from '@fundi/domain/training';
import type { DashboardDeps, PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { html, when, type Html } from '../dashboard/html.js';
import { sectionsIn } from '../dashboard/page-sections.js';
import { can, zoneOf } from '../dashboard/web.js';
import { namesFor, person } from '../dashboard/forms/person.js';

/** How many enrolments each list shows; the counts above them are of all. */
const LISTED = 10;
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-ZA')} ${n === 1 ? one : many}`;

/** Why an enrolment is at risk; `idle` names what it has had none of (`assessment or ...`). */
function why(r: EnrolmentAtRisk, idle: string): string {
  if (r.reason === 'overdue') return `Expected end ${r.enrolment.expectedEndDate} has passed`;
  return r.lastAssessed
    ? `No ${idle} in ${WATCH_DAYS} days (last assessed ${r.lastAssessed})`
    : `No ${idle} in ${WATCH_DAYS} days (never assessed)`;
}

/**
 * Learners at risk (docs/dashboard.md, "Pages": the overview): open enrolments past their expected end date, or idle for
 * `WATCH_DAYS` days (no assessment dated in that time and no activity another capability records, such as evidence
 * uploaded), counted and the first listed.
 */
async function atRisk(d: DashboardDeps, s: SessionContext): Promise<Html | null> {
  if (!can(s, 'enrolments:read')) return null;
  // The days are the tenant's: its "today" begins at midnight in its time zone, not UTC's.
  const timeZone = zoneOf(s);
  const { since } = watchWindow(d.now(), timeZone);
  // Activity other capabilities record (evidence uploaded) keeps an enrolment off the idle list.
  const activity = (await sectionsIn(d, s, 'enrolmentActivity', { since: dayStartIn(since, timeZone) })).flatMap(
    (a) => a ?? [],
  );
  const active = activity.flatMap((a) => a.enrolmentIds);
  const idle = ['assessment', ...activity.map((a) => a.label)].join(' or ');
  const r = await d.training.enrolmentsAtRisk.execute(s.actor, { active, limit: LISTED, timeZone });
  const names = await namesFor(
    d,
    s,
    r.items.map((i) => i.enrolment.learnerId),
  );
  return html`<section aria-labelledby="at-risk"><h2 id="at-risk">Learners at risk</h2>
<p>${plural(r.learners, 'learner')} (${plural(r.enrolments, 'open enrolment')}) past the expected end date or with no ${idle} in ${WATCH_DAYS} days.</p>
${when(
  r.items.length > 0,
  () => html`<div class="table" tabindex="0"><table><caption class="sr">Learners at risk, past due first</caption><thead><tr><th scope="col">Learner</th><th scope="col">Programme</th><th scope="col">Why</th></tr></thead><tbody>
${r.items.map((i) => html`<tr><td>${person(names, i.enrolment.learnerId)}</td><td>${i.enrolment.programmeCode}</td><td>${why(i, idle)}</td></tr>`)}
</tbody></table></div>${when(r.enrolments > r.items.length, () => html`<p class="muted">The first ${r.items.length} are listed: past due first, then the longest enrolled.</p>`)}`,
)}</section>`;
}

/** Upcoming deadlines: open enrolments whose expected end date is in the next `WATCH_DAYS` days. */
async function deadlines(d: DashboardDeps, s: SessionContext): Promise<Html | null> {
  if (!can(s, 'enrolments:read')) return null;
  const r = await d.training.enrolmentsDue.execute(s.actor, { limit: LISTED, timeZone: zoneOf(s) });
  const names = await namesFor(
    d,
    s,
    r.items.map((e) => e.learnerId),
  );
  return html`<section aria-labelledby="deadlines"><h2 id="deadlines">Upcoming deadlines</h2>
<p>${plural(r.total, 'open enrolment')} expected to end in the next ${WATCH_DAYS} days.</p>
${when(
  r.items.length > 0,
  () => html`<div class="table" tabindex="0"><table><caption class="sr">Upcoming deadlines, soonest first</caption><thead><tr><th scope="col">Learner</th><th scope="col">Programme</th><th scope="col">Expected end</th></tr></thead><tbody>
${r.items.map((e) => html`<tr><td>${person(names, e.learnerId)}</td><td>${e.programmeCode}</td><td>${e.expectedEndDate}</td></tr>`)}
</tbody></table></div>${when(r.total > r.items.length, () => html`<p class="muted">The ${r.items.length} soonest are listed.</p>`)}`,
)}</section>`;
}

/** The overview's lists of what needs attention: learners at risk and upcoming deadlines. */
export const watchSection: PageSection<SlotOf<'overview'>> = {
  order: 10,
  async render(d, s) {
    const [risk, due] = await Promise.all([atRisk(d, s), deadlines(d, s)]);
    return html`${risk}${due}`;
  },
};

import { isDomainError } from '@fundi/domain';
import type { DashboardDeps, PageRoutes, PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { html } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { chosenLearners, hidden, refusedFor, resultPage } from '../learners/learner-bulk.js';
import { field, requireScope } from '../dashboard/web.js';

/** The learners list's bulk action that enrols the selection in a programme: its form. */
export const bulkEnrol: PageSection<SlotOf<'learnerBulk'>> = {
  order: 10,
  async render(d) {
    return {
      value: 'enrol',
      label: 'Enrol in a programme',
      scope: 'enrolments:write',
      async start(_ctx, s, { ids, list }) {
        const programmes = await d.training.listProgrammes.execute(
          s.actor,
          { status: 'active' },
          { kind: 'offset', offset: 0, limit: 200 },
        );
        const today = d.now().toISOString().slice(0, 10);
        return page({
          title: `Enrol ${ids.length} learner${ids.length === 1 ? '' : 's'}`,
          current: '/dashboard/learners',
          session: s,
          body: html`${list}<form class="card" method="post" action="/dashboard/learners/bulk/enrol">${csrf(s)}${hidden(ids)}
<label for="b-programme">Programme</label><select id="b-programme" name="programmeCode" required>${programmes.items.map((p) => html`<option value="${p.code}">${p.name} (${p.code})</option>`)}</select>
<label for="b-start">Start date</label><input id="b-start" name="startDate" type="date" value="${today}" required>
<label for="b-end">Expected end date (optional)</label><input id="b-end" name="expectedEndDate" type="date">
<button type="submit">Enrol them</button></form>`,
        });
      },
    };
  },
};

/** The bulk enrolment's post: each learner enrolled by the API's own call, with what happened to each. */
export function bulkEnrolPages(r: PageRoutes, d: DashboardDeps): void {
  r.post('/dashboard/learners/bulk/enrol', async (ctx, s, form) => {
    requireScope(s, 'enrolments:write');
    const { ids, names, refused } = await chosenLearners(ctx, d, s, form);
    if (refused) return refused;
    const programmeCode = field(form, 'programmeCode');
    const rows = [];
    for (const id of ids) {
      try {
        await d.training.enrolLearner.execute(s.actor, {
          learnerId: id,
          programmeCode,
          startDate: field(form, 'startDate'),
          expectedEndDate: field(form, 'expectedEndDate'),
        });
        rows.push({ id, result: `enrolled in ${programmeCode}`, refused: false });
      } catch (e) {
        if (isDomainError(e) && e.code === 'open_enrolment_exists')
          rows.push({ id, result: `already enrolled in ${programmeCode}`, refused: false });
        else rows.push({ id, result: refusedFor(e), refused: true });
      }
    }
    return resultPage(s, 'Enrolment of the selection', names, rows);
  });
}

import type { PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { html, when } from '../dashboard/html.js';

/** The learner's record: their workplace hours per module, logged and signed, and whether they are ready for assessment. */
export const learnerHours: PageSection<SlotOf<'learnerRecord'>> = {
  order: 20,
  scope: 'logbooks:read',
  async render(d, s, at) {
    const hours = await d.logbooks.progress.execute(s.actor, at.learner.id);
    return when(
      hours.length,
      () => html`<h2>Workplace hours</h2><div class="table" tabindex="0"><table><thead><tr><th scope="col">Module</th><th scope="col">Logged</th><th scope="col">Signed</th><th scope="col">Required</th><th scope="col">Ready for assessment</th></tr></thead><tbody>
${hours.map((h) => html`<tr><td>${h.moduleCode}</td><td>${h.logged}</td><td>${h.signed}</td><td>${h.required ?? '-'}</td><td>${h.ready ? 'yes' : 'no'}</td></tr>`)}
</tbody></table></div>`,
    );
  },
};

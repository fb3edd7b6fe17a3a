import type { PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { dateTime, html } from '../dashboard/html.js';
import { zoneOf } from '../dashboard/web.js';
import { fieldLabel } from './export-readiness.js';

const FILES = [
  ['qcto01', 'QCTO01 learner information'],
  ['qcto02', 'QCTO02 module achievements'],
] as const;
/** The fields named on the overview per file, the ones keeping most learners out first. */
const TOP = 5;
const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-ZA')} ${n === 1 ? one : many}`;

/**
 * QCTO readiness on the overview (docs/dashboard.md, "Pages": the overview): per file, the learners ready and left out and the
 * fields that keep most learners out, each linking to the readiness page of that field. The overview never waits
 * for a count: it shows the last one, saying when it is older than the latest change (a new count begins when the
 * last is 5 minutes old).
 */
export const readinessSection: PageSection<SlotOf<'overview'>> = {
  order: 20,
  scope: 'exports:write',
  async render(d, s) {
    const zone = zoneOf(s);
    const files = await Promise.all(
      FILES.map(async ([type, title]) => {
        const r = await d.exports.requestRegulator.latest(s.actor, type);
        const link = `/dashboard/readiness?type=${type}`;
        if (!r)
          return html`<div class="card"><h3>${title}</h3><p>Being counted: <a href="${link}">open the readiness report</a>.</p></div>`;
        return html`<div class="card"><h3>${title}</h3>
<p><strong>${count(r.report.ready, 'learner')} ready</strong>, ${count(r.report.leftOut, 'learner')} left out. <a href="${link}">Readiness report</a></p>
${r.current ? null : html`<p class="muted">Counted at ${dateTime(r.countedAt, zone)}, before the latest changes; it is counted again at most every 5 minutes, and the readiness report is always current.</p>`}
${
  r.byField.length
    ? html`<p>Fields keeping most learners out:</p><ul>${r.byField.slice(0, TOP).map((f) => html`<li><a href="${link}&amp;field=${encodeURIComponent(f.field)}">${fieldLabel(f.field)}</a>: ${count(f.learners, 'learner')}</li>`)}</ul>`
    : null
}</div>`;
      }),
    );
    return html`<section aria-labelledby="readiness"><h2 id="readiness">QCTO readiness</h2>${files}</section>`;
  },
};

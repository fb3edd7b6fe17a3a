import type { EnrolmentView, EvidenceView } from '@fundi/application';
import { html, when } from '../../dashboard/html.js';
import { portalPage } from '../portal-layout.js';
import type { PortalHttpDeps, PortalRoutes } from '../portal-deps.js';
import { EN } from '../portal-strings.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;

/** Competent, or what is still needed: the latest summative result (after moderation, which is not shown). */
function moduleLine(m: EnrolmentView['progress']['modules'][number], evidence: readonly EvidenceView[]) {
  const mine = evidence.filter((e) => e.moduleId === m.code);
  return html`<li><strong>${m.code}</strong> ${m.name}<br>
${m.latestOutcome === 'C' ? html`<span class="ok">${EN.result}: competent</span>` : html`<span class="todo">${EN.stillNeeded}: ${m.latestOutcome ? `${EN.result} ${m.latestOutcome}` : EN.notAssessed}</span>`}
${mine.map(
  (e) =>
    html`<br><span>${e.filename}: ${EN.status[e.status] ?? e.status}</span>${when(e.feedback, () => html`<br><span class="muted">${EN.feedback}: ${e.feedback}</span>`)}`,
)}</li>`;
}

/**
 * The learner's own programmes with progress per module, and their evidence with its feedback. Everything is read
 * with the session's learner id, never one from the request.
 */
export function homePages(r: PortalRoutes, d: PortalHttpDeps): void {
  r.get('/learn', async (_ctx, s) => {
    const [enrolments, evidence] = await Promise.all([
      d.training.listEnrolments.execute(s.actor, { learnerId: s.learner.id }, ALL),
      d.evidence.reviews.list(s.actor, { learnerId: s.learner.id }, ALL),
    ]);
    return portalPage({
      title: EN.home,
      session: s,
      body: html`${enrolments.items.map(
        (e) => html`<section class="card" aria-labelledby="p-${e.id}"><h2 id="p-${e.id}">${e.programmeCode}</h2>
<p>${EN.competentOf(e.progress.competent, e.progress.total)} · ${e.status.replace('_', ' ')}, ${EN.from} ${e.startDate}</p>
<ul class="modules">${e.progress.modules.map((m) => moduleLine(m, evidence.items))}</ul></section>`,
      )}${when(enrolments.items.length === 0, () => html`<p>${EN.noEnrolments}</p>`)}`,
    });
  });
}

import type { PortalSessionContext } from '@fundi/application/portal';
import type { EnrolmentView } from '@fundi/application/training';
import type { EvidenceView } from '@fundi/application/evidence';
import { OPEN_STATUSES } from '@fundi/domain/training';
import { EVIDENCE_TYPES } from '@fundi/domain/evidence';
import { html, when } from '../../dashboard/html.js';
import { newFormToken } from '../../dashboard/web.js';
import { UPLOAD_SCRIPT_PATH } from '../portal-assets.js';
import { portalCsrf, portalPage } from '../portal-layout.js';
import type { PortalHttpDeps, PortalRoutes } from '../portal-deps.js';
import { EN } from '../portal-strings.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;
type ModuleProgress = EnrolmentView['progress']['modules'][number];

/** A file field that opens the camera or the files on a phone; JPEG, PNG and PDF are what evidence usually is. */
const fileField = (id: string) =>
  html`<label for="${id}">${EN.file}</label><input id="${id}" name="file" type="file" required accept="image/*,application/pdf">`;

/**
 * The upload key of one form as rendered (docs/dashboard.md, "Learner portal"): every attempt to send it, the
 * script's retries and a press of the button again, is one upload.
 */
const uploadKey = () => html`<input type="hidden" name="uploadKey" value="${newFormToken()}">`;

/** One piece of the learner's evidence: status, feedback, and a new version when a revision was asked for. */
function evidenceLine(s: PortalSessionContext, e: EvidenceView) {
  return html`<p>${e.filename}: ${EN.status[e.status] ?? e.status}${when(e.feedback, () => html`<br><span class="muted">${EN.feedback}: ${e.feedback}</span>`)}</p>
${when(
  e.status === 'revision_requested',
  () => html`<form method="post" action="/learn/evidence/${e.id}/versions" enctype="multipart/form-data" data-retry>${portalCsrf(s)}${uploadKey()}
${fileField(`v-${e.id}`)}<button type="submit">${EN.newVersion}</button></form>`,
)}`;
}

/** Competent, or what is still needed (the latest summative result; moderation is staff-only and not shown). */
function moduleItem(s: PortalSessionContext, m: ModuleProgress, open: boolean, evidence: readonly EvidenceView[]) {
  const id = `f-${s.learner.id}-${m.code}`.replace(/[^\w-]/g, '-');
  return html`<li><h3>${m.code} ${m.name}</h3>
${m.latestOutcome === 'C' ? html`<p class="ok">${EN.result}: competent</p>` : html`<p class="todo">${EN.stillNeeded}: ${m.latestOutcome ? `${EN.result} ${m.latestOutcome}` : EN.notAssessed}</p>`}
${evidence.filter((e) => e.moduleId === m.code).map((e) => evidenceLine(s, e))}
${when(
  open && m.latestOutcome !== 'C',
  () => html`<details><summary>${EN.uploadFor(m.code)}</summary><form method="post" action="/learn/evidence" enctype="multipart/form-data" data-retry>${portalCsrf(s)}${uploadKey()}
<input type="hidden" name="moduleId" value="${m.code}">
<label for="t-${id}">${EN.evidenceType}</label><select id="t-${id}" name="evidenceType">${EVIDENCE_TYPES.filter((t) => t !== 'identity_document').map((t) => html`<option value="${t}">${EN.types[t] ?? t}</option>`)}</select>
${fileField(id)}<button type="submit">${EN.send}</button></form></details>`,
)}</li>`;
}

/**
 * The learner's own programmes with progress per module, their evidence with its feedback, and the upload forms.
 * Everything is read with the session's learner id, never one from the request.
 */
export function homePages(r: PortalRoutes, d: PortalHttpDeps): void {
  r.get('/learn', async (ctx, s) => {
    const [enrolments, evidence] = await Promise.all([
      d.training.listEnrolments.execute(s.actor, { learnerId: s.learner.id }, ALL),
      d.evidence.listEvidence.execute(s.actor, { learnerId: s.learner.id }, ALL),
    ]);
    return portalPage({
      title: EN.home,
      session: s,
      script: UPLOAD_SCRIPT_PATH,
      notice: ctx.query.uploaded === '1' ? { text: EN.uploaded } : null,
      body: html`<p><a href="/learn/details">${EN.details}</a> · <a href="/learn/logbook">${EN.logbook}</a> · <a href="/learn/statements">${EN.statements}</a></p>
${enrolments.items.map(
  (e) => html`<section class="card" aria-labelledby="p-${e.id}"><h2 id="p-${e.id}">${e.programmeCode}</h2>
<p>${EN.competentOf(e.progress.competent, e.progress.total)} · ${e.status.replace('_', ' ')}, ${EN.from} ${e.startDate}</p>
<ul class="modules">${e.progress.modules.map((m) =>
    moduleItem(
      s,
      m,
      OPEN_STATUSES.includes(e.status),
      evidence.items.filter((x) => x.enrolmentId === e.id),
    ),
  )}</ul></section>`,
)}${when(enrolments.items.length === 0, () => html`<p>${EN.noEnrolments}</p>`)}`,
    });
  });
}

import type { EvidenceView } from '@fundi/application/evidence';
import type { PortalSessionContext } from '@fundi/application/portal';
import { EVIDENCE_TYPES } from '@fundi/domain/evidence';
import { html, when } from '../dashboard/html.js';
import { newFormToken } from '../dashboard/web.js';
import { portalCsrf } from '../portal/portal-layout.js';
import type { PortalSection, PortalSlotOf } from '../portal/portal-deps.js';
import type { HomeModuleAt } from '../portal/pages/home-slots.js';
import { EVIDENCE_EN as EN } from './evidence-portal-strings.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;

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

/** Under one module: the learner's evidence of it, and the upload form while it is open and not yet competent. */
function moduleEvidence(s: PortalSessionContext, at: HomeModuleAt, evidence: readonly EvidenceView[]) {
  const m = at.module;
  const id = `f-${s.learner.id}-${m.code}`.replace(/[^\w-]/g, '-');
  return html`${evidence.filter((e) => e.enrolmentId === at.enrolment.id && e.moduleId === m.code).map((e) => evidenceLine(s, e))}
${when(
  at.open && m.latestOutcome !== 'C',
  () => html`<details><summary>${EN.uploadFor(m.code)}</summary><form method="post" action="/learn/evidence" enctype="multipart/form-data" data-retry>${portalCsrf(s)}${uploadKey()}
<input type="hidden" name="moduleId" value="${m.code}">
<label for="t-${id}">${EN.evidenceType}</label><select id="t-${id}" name="evidenceType">${EVIDENCE_TYPES.filter((t) => t !== 'identity_document').map((t) => html`<option value="${t}">${EN.types[t] ?? t}</option>`)}</select>
${fileField(id)}<button type="submit">${EN.send}</button></form></details>`,
)}`;
}

/**
 * The portal's home, under each module (docs/dashboard.md, "Learner portal"): the learner's own evidence with its
 * status and feedback, a new version's form where a revision was asked for, and the upload form. The learner's
 * evidence is read once per view, with the session's learner id.
 */
export const portalModuleEvidence: PortalSection<PortalSlotOf<'homeModule'>> = {
  order: 10,
  async render(d, s) {
    const evidence = await d.evidence.listEvidence.execute(s.actor, { learnerId: s.learner.id }, ALL);
    return (at) => moduleEvidence(s, at, evidence.items);
  },
};

/** The portal's home after an upload (`?uploaded=1`, where the upload routes send the learner). */
export const portalEvidenceUploaded: PortalSection<PortalSlotOf<'homeNotice'>> = {
  order: 10,
  async render(_d, _s, at) {
    return at.query.uploaded === '1' ? EN.uploaded : null;
  },
};

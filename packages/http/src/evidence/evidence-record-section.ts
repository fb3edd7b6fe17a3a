import type { SessionContext } from '@fundi/application/staff';
import { EVIDENCE_TYPES } from '@fundi/domain/evidence';
import { OPEN_STATUSES } from '@fundi/domain/training';
import type { PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { dateTime, html, when, type Html } from '../dashboard/html.js';
import { csrf } from '../dashboard/layout.js';
import { statusLabel } from '../training/record-forms.js';
import { can, zoneOf } from '../dashboard/web.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;

/**
 * Evidence upload: several files (app.js sends each as its own request with a progress bar; without it, one file).
 * `accept` names images, so a phone's chooser offers its camera beside its files; `capture` is left off because it
 * would force the camera and hide the PDFs.
 */
export function uploadForm(s: SessionContext, learnerId: string, modules: { code: string; label: string }[]): Html {
  return html`<form class="card" method="post" action="/dashboard/learners/${learnerId}/evidence" enctype="multipart/form-data" data-upload-each>${csrf(s)}
<h2>Upload evidence</h2><div class="grid2"><div><label for="ev-module">Module</label><select id="ev-module" name="moduleId" required>${modules.map((m) => html`<option value="${m.code}">${m.label}</option>`)}</select></div>
<div><label for="ev-type">Kind of evidence</label><select id="ev-type" name="evidenceType">${EVIDENCE_TYPES.map((t) => html`<option value="${t}">${statusLabel(t)}</option>`)}</select></div></div>
<label for="ev-file">Files (PDF, photos, documents; a phone can take a photo)</label><input id="ev-file" name="file" type="file" multiple required accept="image/*,application/pdf,.doc,.docx,.xls,.xlsx,.txt,.csv">
<progress max="100" value="0" hidden aria-label="Upload progress"></progress><p data-upload-status role="status" class="muted"></p>
<button type="submit">Upload</button></form>`;
}

/** The learner's record: their evidence, and the form to upload more for their open modules. */
export const learnerEvidence: PageSection<SlotOf<'learnerRecord'>> = {
  order: 40,
  async render(d, s, at) {
    const [evidence, enrolments] = await Promise.all([
      can(s, 'evidence:read') ? d.evidence.listEvidence.execute(s.actor, { learnerId: at.learner.id }, ALL) : null,
      at.enrolments,
    ]);
    const openModules = (enrolments ?? [])
      .filter((e) => OPEN_STATUSES.includes(e.status))
      .flatMap((e) =>
        e.progress.modules.map((m) => ({ code: m.code, label: `${m.code} ${m.name} (${e.programmeCode})` })),
      );
    return html`${when(
      evidence,
      () => html`<h2>Evidence</h2><div class="table" tabindex="0"><table><thead><tr><th scope="col">File</th><th scope="col">Module</th><th scope="col">Kind</th><th scope="col">Version</th><th scope="col">Status</th><th scope="col">Uploaded</th></tr></thead><tbody>
${evidence!.items.map((e) => html`<tr><td><a href="/dashboard/evidence/${e.id}">${e.filename}</a></td><td>${e.moduleId}</td><td>${statusLabel(e.evidenceType)}</td><td>${e.version}</td><td>${statusLabel(e.status)}</td><td>${dateTime(e.createdAt, zoneOf(s))}</td></tr>`)}
</tbody></table></div>`,
    )}
${when(can(s, 'evidence:write') && openModules.length > 0, () => uploadForm(s, at.learner.id, openModules))}`;
  },
};

import type { SessionContext } from '@fundi/application/staff';
import type { DashboardDeps, PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { statusLabel } from '../training/record-forms.js';
import { dateTime, html } from '../dashboard/html.js';
import { zoneOf } from '../dashboard/web.js';
import type { EnrolmentRecordAt } from '../training/enrolment-record-slots.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;

/** The evidence of the enrolment, read once for its page and its history. */
const listed = (d: DashboardDeps, s: SessionContext, at: EnrolmentRecordAt) =>
  at.once('evidence', () => d.evidence.listEvidence.execute(s.actor, { enrolmentId: at.enrolment.id }, ALL));

/** An enrolment's page: its evidence, each file with its module, kind, version and status. */
export const enrolmentEvidence: PageSection<SlotOf<'enrolmentRecord'>> = {
  order: 10,
  scope: 'evidence:read',
  async render(d, s, at) {
    const evidence = await listed(d, s, at);
    return html`<h2>Evidence</h2>${
      evidence.items.length === 0
        ? html`<p class="muted">None uploaded.</p>`
        : html`<div class="table" tabindex="0"><table><thead><tr><th scope="col">File</th><th scope="col">Module</th><th scope="col">Kind</th><th scope="col">Version</th><th scope="col">Status</th><th scope="col">Uploaded</th></tr></thead><tbody>
${evidence.items.map((x) => html`<tr><td><a href="/dashboard/evidence/${x.id}">${x.filename}</a></td><td>${x.moduleId}</td><td>${statusLabel(x.evidenceType)}</td><td>${x.version}</td><td>${statusLabel(x.status)}</td><td>${dateTime(x.createdAt, zoneOf(s))}</td></tr>`)}
</tbody></table></div>`
    }`;
  },
};

/** The enrolment's history covers its evidence. */
export const evidenceIds: PageSection<SlotOf<'enrolmentRecordIds'>> = {
  order: 20,
  scope: 'evidence:read',
  async render(d, s, at) {
    return (await listed(d, s, at)).items.map((x) => x.id);
  },
};

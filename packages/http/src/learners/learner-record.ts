import type { LearnerView } from '@fundi/application/learners';
import type { SessionContext } from '@fundi/application/staff';
import type { NlrdField } from '@fundi/domain/learners';
import type { DashboardDeps } from '../dashboard/dashboard-deps.js';
import { dateTime, html, when, type Html } from '../dashboard/html.js';
import { page } from '../dashboard/layout.js';
import { sectionsIn } from '../dashboard/page-sections.js';
import { can, requireScope, zoneOf } from '../dashboard/web.js';
import { codeLabel } from '../dashboard/forms/code-labels.js';
import { FIELD_LABELS } from './learner-form.js';
import { statusLabel } from '../training/record-forms.js';
export type { LearnerRecordAt } from './learner-record-slots.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;
const CODED: NlrdField[] = [
  'equityCode',
  'nationalityCode',
  'homeLanguageCode',
  'citizenResidentStatusCode',
  'socioeconomicStatusCode',
  'disabilityStatusCode',
  'disabilityRating',
  'immigrantStatus',
  'provinceCode',
];

const row = (label: string, v: string | null | undefined) =>
  html`<tr><th scope="row">${label}</th><td>${v ?? '-'}</td></tr>`;

function profile(l: LearnerView, zone: string): Html {
  const address = (a: LearnerView['homeAddress']) =>
    a ? [a.line1, a.line2, a.line3, a.postalCode].filter(Boolean).join(', ') : null;
  return html`<div class="table" tabindex="0"><table><caption class="sr">Identity and contact</caption><tbody>
${row('ID number', l.idNumber ?? (l.alternateId ? `${l.alternateId} (${statusLabel(l.alternateIdType ?? '')})` : null))}
${row('Date of birth', l.dateOfBirth)}${row('Gender', l.gender === 'F' ? 'female' : 'male')}${row('Citizenship', l.citizenship ? statusLabel(l.citizenship) : null)}
${row('Email', l.email)}${row('Mobile', l.mobile)}${row('Employer', l.employer)}${row('Employee reference', l.employeeRef)}
${CODED.map((f) => row(FIELD_LABELS[f]!, codeLabel(f, l[f])))}
${row('Home address', address(l.homeAddress))}${row('POPI Act agreed', l.popiActAgree === null ? null : l.popiActAgree ? `yes${l.popiActDate ? `, ${l.popiActDate}` : ''}` : 'no')}
${row('Registered', dateTime(l.createdAt, zone))}${row('Last changed', dateTime(l.updatedAt, zone))}
</tbody></table></div>`;
}

/**
 * A learner's record: identity and profile, then the sections the capabilities add (docs/dashboard.md, "Shared
 * pages": enrolments with progress and the forms that act on them, assessments, evidence, ...), loaded in parallel.
 */
export async function learnerRecord(
  d: DashboardDeps,
  s: SessionContext,
  id: string,
  notice?: { text: string; error?: boolean },
): Promise<Html> {
  requireScope(s, 'learners:read');
  const l = await d.learners.getLearner.execute(s.actor, id);
  const enrolments = can(s, 'enrolments:read')
    ? d.training.listEnrolments.execute(s.actor, { learnerId: l.id }, ALL).then((p) => p.items)
    : Promise.resolve(null);
  // A failed read fails the sections that wait for it; this marks it handled when none does.
  enrolments.catch(() => undefined);
  const sections = await sectionsIn(d, s, 'learnerRecord', {
    learner: l,
    enrolments,
    today: d.now().toISOString().slice(0, 10),
  });
  const name = `${l.firstName} ${l.lastName}`;
  return page({
    title: name,
    current: '/dashboard/learners',
    session: s,
    notice,
    body: html`${when(can(s, 'learners:write'), () => html`<p><a class="button" href="/dashboard/learners/${l.id}/edit">Edit ${name}</a></p>`)}
${profile(l, zoneOf(s))}${sections.map((x) => html`\n${x}`)}`,
  });
}

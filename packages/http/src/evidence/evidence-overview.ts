import type { PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { bytes, html } from '../dashboard/html.js';
import { age } from '../dashboard/forms/age.js';
import { namesFor, person } from '../dashboard/forms/person.js';
import { can } from '../dashboard/web.js';

const ONE = { kind: 'offset', offset: 0, limit: 1 } as const;
const FIRST = { kind: 'offset', offset: 0, limit: 10 } as const;
const DAY = 86_400_000;
const AGES: [string, number | null, number | null][] = [
  ['under 2 days', null, 2],
  ['2 to 7 days', 2, 7],
  ['7 to 30 days', 7, 30],
  ['over 30 days', 30, null],
];

/** An assessor's work on landing: evidence awaiting review, oldest first, with how long each has waited. */
export const assessorQueue: PageSection<SlotOf<'overviewLanding'>> = {
  order: 30,
  role: 'assessor',
  async render(d, s) {
    const queue = await d.evidence.listEvidence.execute(s.actor, { status: 'submitted' }, FIRST);
    const names = await namesFor(
      d,
      s,
      queue.items.map((e) => e.learnerId),
    );
    const now = d.now().getTime();
    return html`<h2>Your review queue (${queue.total}, oldest first)</h2>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Waiting</th><th scope="col">File</th><th scope="col">Learner</th><th scope="col">Module</th></tr></thead><tbody>
${queue.items.map((e) => html`<tr><td>${age(now, e.createdAt)}</td><td><a href="/dashboard/evidence/${e.id}">${e.filename}</a></td><td>${person(names, e.learnerId)}</td><td>${e.moduleId}</td></tr>`)}
</tbody></table></div><p><a href="/dashboard/evidence">The whole queue</a> · <a href="/dashboard/assessments">Record results</a> (modules without a result)</p>`;
  },
};

/** The overview's evidence awaiting review (the list's total), the storage used and today's API requests. */
export const evidenceTiles: PageSection<SlotOf<'overviewTiles'>> = {
  order: 30,
  async render(d, s) {
    const [evidence, u] = await Promise.all([
      can(s, 'evidence:read')
        ? d.evidence.listEvidence.execute(s.actor, { status: 'submitted' }, ONE).then((x) => x.total)
        : null,
      can(s, 'usage:read') ? d.evidence.usage.usage(s.actor) : null,
    ]);
    const storage = !u
      ? null
      : u.quotaBytes === null
        ? `${bytes(u.bytesUsed)} (no quota)`
        : `${bytes(u.bytesUsed)} of ${bytes(u.quotaBytes)} (${u.percentUsed}%)`;
    return [
      { label: 'Evidence awaiting review', value: evidence, href: '/dashboard/evidence' },
      { label: 'Storage used', value: storage },
      { label: 'API requests today', value: u?.requestsToday ?? null },
    ];
  },
};

/** Evidence awaiting review on the overview, by how long it has waited (four counts). */
export const evidenceBacklog: PageSection<SlotOf<'overviewProgress'>> = {
  order: 20,
  scope: 'evidence:read',
  async render(d, s) {
    const now = d.now().getTime();
    const at = (days: number | null) => (days === null ? undefined : new Date(now - days * DAY).toISOString());
    const counts = await Promise.all(
      AGES.map(([, newer, older]) =>
        d.evidence.listEvidence
          .execute(s.actor, { status: 'submitted', from: at(older), to: at(newer) }, ONE)
          .then((p) => p.total),
      ),
    );
    return html`<h2>Evidence backlog by age</h2><ul class="tiles">${AGES.map(([label], i) => html`<li><span>Waiting ${label}</span><strong><a href="/dashboard/evidence">${counts[i]}</a></strong></li>`)}</ul>`;
  },
};

/** Evidence uploaded keeps an open enrolment off the overview's idle list. */
export const evidenceActivity: PageSection<SlotOf<'enrolmentActivity'>> = {
  order: 10,
  async render(d, s, at) {
    return { label: 'evidence', enrolmentIds: await d.evidence.enrolmentsWithUploads.execute(s.actor, at.since) };
  },
};

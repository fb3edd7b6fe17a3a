import type { SessionContext } from '@fundi/application/staff';
import type { ProgrammeStatusCounts } from '@fundi/application/training';
import type { DashboardDeps, PageRoutes } from '../dashboard-deps.js';
import { bytes, html } from '../html.js';
import { page } from '../layout.js';
import { can } from '../web.js';
import { roleLanding } from './role-landing.js';
import { progressSections } from './overview-progress.js';
import { watchSections } from './overview-watch.js';
import { readinessSection } from './overview-readiness.js';

const ONE = { kind: 'offset', offset: 0, limit: 1 } as const;
const OPEN = ['enrolled', 'in_progress', 'suspended'] as const;

/** Counts come from the list use cases' totals (one row read each) and the grouped enrolment counts; storage from the usage use case. */
async function figures(d: DashboardDeps, s: SessionContext, counted: Promise<ProgrammeStatusCounts[]> | null) {
  const a = s.actor;
  const now = d.now().toISOString();
  const month = { from: `${now.slice(0, 7)}-01`, to: now.slice(0, 10) };
  const count = (ok: boolean, p: () => Promise<{ total: number }>) => (ok ? p().then((x) => x.total) : null);
  const [learners, enrolments, assessments, evidence, usage] = await Promise.all([
    count(can(s, 'learners:read'), () => d.learners.listLearners.execute(a, {}, ONE)),
    counted?.then((ps) => ps.reduce((n, p) => n + OPEN.reduce((m, st) => m + (p.counts[st] ?? 0), 0), 0)) ?? null,
    count(can(s, 'assessments:read'), () => d.training.listAssessments.execute(a, month, ONE)),
    count(can(s, 'evidence:read'), () => d.evidence.listEvidence.execute(a, { status: 'submitted' }, ONE)),
    can(s, 'usage:read') ? d.evidence.usage.usage(a) : null,
  ]);
  return { learners, enrolments, assessments, evidence, usage };
}

export function overviewPages(r: PageRoutes, d: DashboardDeps): void {
  r.get('/dashboard', async (_ctx, s) => {
    // The grouped enrolment counts serve the open-enrolments figure and the completion chart: read once.
    const counted = can(s, 'enrolments:read') ? d.training.enrolmentCounts.execute(s.actor) : null;
    const [f, landing, progress, watch, readiness] = await Promise.all([
      figures(d, s, counted),
      roleLanding(d, s),
      progressSections(d, s, counted),
      watchSections(d, s),
      readinessSection(d, s),
    ]);
    const tile = (label: string, value: string | number | null, href?: string) =>
      value === null
        ? null
        : html`<li><span>${label}</span><strong>${href ? html`<a href="${href}">${value}</a>` : value}</strong></li>`;
    const u = f.usage;
    const storage = !u
      ? null
      : u.quotaBytes === null
        ? `${bytes(u.bytesUsed)} (no quota)`
        : `${bytes(u.bytesUsed)} of ${bytes(u.quotaBytes)} (${u.percentUsed}%)`;
    return page({
      title: 'Overview',
      current: '/dashboard',
      session: s,
      body: html`<p>Signed in as ${s.user.name} (${s.user.role}).</p>
${landing}
<ul class="tiles">
${tile('Learners', f.learners, '/dashboard/learners')}
${tile('Open enrolments', f.enrolments, '/dashboard/enrolments')}
${tile('Assessments this month', f.assessments)}
${tile('Evidence awaiting review', f.evidence, '/dashboard/evidence')}
${tile('Storage used', storage)}
${tile('API requests today', f.usage?.requestsToday ?? null)}
</ul>
${watch}
${readiness}
${progress}`,
    });
  });
}

import type { ProgrammeStatusCounts } from '@fundi/application/training';
import type { SessionContext } from '@fundi/application/staff';
import type { DashboardDeps, PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { html } from '../dashboard/html.js';
import { CHART_STATUSES, completionChart, type ProgrammeCounts } from './completion-chart.js';
import type { OverviewAt } from '../dashboard/pages/overview-slots.js';
import { can } from '../dashboard/web.js';

const ONE = { kind: 'offset', offset: 0, limit: 1 } as const;
const OPEN = ['enrolled', 'in_progress', 'suspended'] as const;
/** The chart shows the first programmes by code; the table of the programmes page lists them all. */
const CHARTED = 8;

/** The grouped enrolment counts serve the open-enrolments figure and the completion chart: read once. */
const counted = (d: DashboardDeps, s: SessionContext, at: OverviewAt): Promise<ProgrammeStatusCounts[]> =>
  at.once('enrolmentCounts', () => d.training.enrolmentCounts.execute(s.actor));

/** The overview's open enrolments (from the grouped counts) and this month's assessments (the list's total). */
export const trainingTiles: PageSection<SlotOf<'overviewTiles'>> = {
  order: 20,
  async render(d, s, at) {
    const now = d.now().toISOString();
    const month = { from: `${now.slice(0, 7)}-01`, to: now.slice(0, 10) };
    const [enrolments, assessments] = await Promise.all([
      can(s, 'enrolments:read')
        ? counted(d, s, at).then((ps) => ps.reduce((n, p) => n + OPEN.reduce((m, st) => m + (p.counts[st] ?? 0), 0), 0))
        : null,
      can(s, 'assessments:read') ? d.training.listAssessments.execute(s.actor, month, ONE).then((x) => x.total) : null,
    ]);
    return [
      { label: 'Open enrolments', value: enrolments, href: '/dashboard/enrolments' },
      { label: 'Assessments this month', value: assessments },
    ];
  },
};

/** Completion per programme on the overview: every programme's enrolments by status, in one grouped read. */
export const completionSection: PageSection<SlotOf<'overviewProgress'>> = {
  order: 10,
  async render(d, s, at) {
    if (!can(s, 'enrolments:read') || !can(s, 'programmes:read')) return null;
    const rows: ProgrammeCounts[] = (await counted(d, s, at)).slice(0, CHARTED).map((p) => ({
      code: p.code,
      name: p.name,
      counts: Object.fromEntries(CHART_STATUSES.map((st) => [st, p.counts[st] ?? 0])) as ProgrammeCounts['counts'],
    }));
    return html`<h2>Completion per programme</h2>${completionChart(rows)}`;
  },
};

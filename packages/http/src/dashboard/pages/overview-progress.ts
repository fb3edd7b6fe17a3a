import type { SessionContext } from '@fundi/application/staff';
import type { ProgrammeStatusCounts } from '@fundi/application/training';
import type { DashboardDeps } from '../dashboard-deps.js';
import { html, type Html } from '../html.js';
import { can } from '../web.js';
import { CHART_STATUSES, completionChart, type ProgrammeCounts } from './completion-chart.js';

const ONE = { kind: 'offset', offset: 0, limit: 1 } as const;
/** The chart shows the first programmes by code; the table of the programmes page lists them all. */
const CHARTED = 8;
const DAY = 86_400_000;
const AGES: [string, number | null, number | null][] = [
  ['under 2 days', null, 2],
  ['2 to 7 days', 2, 7],
  ['7 to 30 days', 7, 30],
  ['over 30 days', 30, null],
];

/** Completion per programme: every programme's enrolments by status, in one grouped read. */
async function completion(s: SessionContext, counts: Promise<ProgrammeStatusCounts[]> | null): Promise<Html | null> {
  if (!counts || !can(s, 'programmes:read')) return null;
  const counted = await counts;
  const rows: ProgrammeCounts[] = counted.slice(0, CHARTED).map((p) => ({
    code: p.code,
    name: p.name,
    counts: Object.fromEntries(CHART_STATUSES.map((st) => [st, p.counts[st] ?? 0])) as ProgrammeCounts['counts'],
  }));
  return html`<h2>Completion per programme</h2>${completionChart(rows)}`;
}

/** Evidence awaiting review by how long it has waited (four counts). */
async function backlog(d: DashboardDeps, s: SessionContext): Promise<Html | null> {
  if (!can(s, 'evidence:read')) return null;
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
}

/** The overview's picture of progress: completion per programme and the evidence backlog by age. */
export async function progressSections(
  d: DashboardDeps,
  s: SessionContext,
  counts: Promise<ProgrammeStatusCounts[]> | null,
): Promise<Html> {
  const [chart, ages] = await Promise.all([completion(s, counts), backlog(d, s)]);
  return html`${chart}${ages}`;
}

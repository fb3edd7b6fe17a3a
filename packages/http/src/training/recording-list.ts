import type { SessionContext } from '@fundi/application/staff';
import type { EnrolmentView } from '@fundi/application/training';
import type { Context } from 'koa';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { type Html, html, when } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { namesFor, person } from '../dashboard/forms/person.js';
import { refusal } from '../dashboard/forms/refusal.js';
import { field, requireScope } from '../dashboard/web.js';

/** Enrolments per page; each shows its modules without a result. */
const PAGE = 25;
/** The enrolments a result may be recorded on from the list: training under way (a suspended one waits). */
const RECORDABLE = ['in_progress', 'enrolled'] as const;

/**
 * The open enrolments of one page over the in-progress ones then the enrolled ones (two of the API's lists read as
 * one), with the total of both.
 */
async function openEnrolments(d: DashboardDeps, s: SessionContext, programmeCode: string, n: number) {
  const filter = programmeCode ? { programmeCode } : {};
  const first = await d.training.listEnrolments.execute(
    s.actor,
    { ...filter, status: RECORDABLE[0] },
    { kind: 'offset', offset: n * PAGE, limit: PAGE },
  );
  const before = (
    await d.training.listEnrolments.execute(
      s.actor,
      { ...filter, status: RECORDABLE[0] },
      { kind: 'offset', offset: 0, limit: 1 },
    )
  ).total;
  const need = PAGE - first.items.length;
  const second = await d.training.listEnrolments.execute(
    s.actor,
    { ...filter, status: RECORDABLE[1] },
    { kind: 'offset', offset: Math.max(0, n * PAGE - before), limit: Math.max(1, need) },
  );
  const items: EnrolmentView[] = [...first.items, ...(need > 0 ? second.items.slice(0, need) : [])];
  return { items, total: before + second.total };
}

function recordForm(s: SessionContext, e: EnrolmentView, code: string, today: string, back: string): Html {
  const p = `rl-${e.id}-${code}`;
  return html`<form method="post" action="/dashboard/assessments/record" class="inline tight">${csrf(s)}
<input type="hidden" name="learnerId" value="${e.learnerId}"><input type="hidden" name="enrolmentId" value="${e.id}"><input type="hidden" name="moduleCode" value="${code}"><input type="hidden" name="back" value="${back}">
<div><label for="${p}-date">Date <span class="sr">for ${code}</span></label><input id="${p}-date" name="assessmentDate" type="date" value="${today}"></div>
<button type="submit" name="outcome" value="C" aria-label="C, competent: ${code}">C</button>
<button type="submit" name="outcome" value="NYC" class="secondary" aria-label="NYC, not yet competent: ${code}">NYC</button></form>`;
}

async function recordingList(
  ctx: Context,
  d: DashboardDeps,
  s: SessionContext,
  notice?: { text: string; error?: boolean },
) {
  requireScope(s, 'assessments:write');
  requireScope(s, 'enrolments:read');
  const programme = typeof ctx.query.programme === 'string' ? ctx.query.programme.trim().slice(0, 50) : '';
  const n = Math.max(0, Math.min(10_000, Number.parseInt(String(ctx.query.page ?? '0'), 10) || 0));
  const [open, programmes] = await Promise.all([
    openEnrolments(d, s, programme, n),
    d.training.listProgrammes.execute(s.actor, {}, { kind: 'offset', offset: 0, limit: 200 }),
  ]);
  const names = await namesFor(
    d,
    s,
    open.items.map((e) => e.learnerId),
  );
  const programmeName = new Map(programmes.items.map((p) => [p.id, p.name]));
  const today = d.now().toISOString().slice(0, 10);
  const link = (to: number) =>
    `/dashboard/assessments?${new URLSearchParams({ ...(programme ? { programme } : {}), page: String(to) })}`;
  const back = link(n);
  const rows = open.items.flatMap((e) =>
    e.progress.modules
      .filter((m) => m.latestOutcome === null)
      .map(
        (m) =>
          html`<tr><td>${person(names, e.learnerId)}</td><td>${programmeName.get(e.programmeId) ?? e.programmeCode} <span class="muted">${e.programmeCode}</span></td><td>${m.code} ${m.name}</td><td>${recordForm(s, e, m.code, today, back)}</td></tr>`,
      ),
  );
  return page({
    title: 'Record results',
    current: '/dashboard/assessments',
    session: s,
    notice,
    body: html`<p>The modules of enrolments in training (in progress first, then enrolled) that have no result yet. C or NYC records a summative result dated as given, with you (${s.user.email}) as the assessor.</p>
<form class="inline" method="get" action="/dashboard/assessments"><div><label for="rl-programme">Programme</label><select id="rl-programme" name="programme"><option value="">Any programme</option>${programmes.items.map((p) => html`<option value="${p.code}"${p.code === programme ? html` selected` : ''}>${p.name} (${p.code})</option>`)}</select></div><button type="submit">Show</button></form>
<p>${open.total} enrolment${open.total === 1 ? '' : 's'} in training · page ${n + 1} of ${Math.max(1, Math.ceil(open.total / PAGE))}.</p>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Learner</th><th scope="col">Programme</th><th scope="col">Module</th><th scope="col">Record</th></tr></thead><tbody>
${rows}
</tbody></table></div>${when(rows.length === 0, () => html`<p class="muted">Nothing to record on this page.</p>`)}
<nav aria-label="Pages" class="inline">${when(n > 0, () => html`<a href="${link(n - 1)}">Previous</a>`)} ${when(n * PAGE + open.items.length < open.total, () => html`<a href="${link(n + 1)}">Next</a>`)}</nav>`,
  });
}

/**
 * An assessor's recording list (docs/dashboard.md, "Pages"): every module of an enrolment in training
 * without a result, to record C or NYC from the list (the API's record use case, the user as the assessor).
 */
export function recordingListPages(r: PageRoutes, d: DashboardDeps): void {
  r.get('/dashboard/assessments', (ctx, s) =>
    recordingList(ctx, d, s, ctx.query.done === '1' ? { text: 'The result is recorded.' } : undefined),
  );

  r.post('/dashboard/assessments/record', async (ctx, s, form) => {
    requireScope(s, 'assessments:write');
    const back = field(form, 'back') ?? '';
    // Back to the page of the list the form came from, never elsewhere.
    const to = /^\/dashboard\/assessments\?[\w=&%.-]*$/.test(back) ? back : '/dashboard/assessments?';
    try {
      await d.training.recordAssessment.execute(s.actor, {
        learnerId: field(form, 'learnerId'),
        enrolmentId: field(form, 'enrolmentId'),
        moduleCode: field(form, 'moduleCode'),
        outcome: field(form, 'outcome'),
        assessmentType: 'summative',
        assessmentDate: field(form, 'assessmentDate'),
        assessorEmail: s.user.email,
      });
    } catch (e) {
      const text = refusal(e);
      ctx.status = 400;
      return recordingList(ctx, d, s, { text, error: true });
    }
    return { redirect: `${to}&done=1` };
  });
}

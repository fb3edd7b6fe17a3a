import type { SessionContext } from '@fundi/application/staff';
import type { AssessmentView, ModerationSampleView } from '@fundi/application/training';
import { MODERATION_DECISIONS } from '@fundi/domain/training';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { dateTime, html, when, type Html } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { can, field, requireScope, zoneOf } from '../dashboard/web.js';
import { refusal } from '../dashboard/forms/refusal.js';
import { namesFor, person } from '../dashboard/forms/person.js';

const ALL = { kind: 'offset', offset: 0, limit: 200 } as const;
/** Results a page of a sample shows: each has a decision form, and a sample may hold hundreds. */
const SAMPLE_PAGE = 50;
/** `?page=` as a page number from 0 (0 when absent or not a number). */
const pageNumber = (v: unknown) => Math.max(0, Math.min(10_000, Number.parseInt(String(v ?? '0'), 10) || 0));
const numberOr = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : v);

function drawForm(s: SessionContext, programmes: { code: string; name: string }[], today: string): Html {
  return html`<form class="card" method="post" action="/dashboard/moderation">${csrf(s)}<h2>Draw a sample</h2>
<div class="grid2"><div><label for="m-programme">Programme</label><select id="m-programme" name="programmeCode">${programmes.map((p) => html`<option value="${p.code}">${p.name} (${p.code})</option>`)}</select></div>
<div><label for="m-percent">Percent of summative results</label><input id="m-percent" name="percent" value="10" inputmode="numeric" class="narrow"></div>
<div><label for="m-from">Assessed from (optional)</label><input id="m-from" name="from" type="date"></div>
<div><label for="m-to">Assessed to (optional)</label><input id="m-to" name="to" type="date" value="${today}"></div>
<div><label for="m-due">Moderation due by (optional, 14 days if empty)</label><input id="m-due" name="dueBy" type="date"></div></div>
<button type="submit">Draw sample</button></form>`;
}

function decisionForm(s: SessionContext, sampleId: string, a: AssessmentView, n: number): Html {
  const p = `d-${a.id}`;
  return html`<form method="post" action="/dashboard/moderation/${sampleId}/${a.id}${n > 0 ? `?page=${n}` : ''}">${csrf(s)}
<label for="${p}-notes">Notes (required) <span class="sr">on ${a.moduleCode}</span></label><input id="${p}-notes" name="notes" maxlength="4000" required>
<div class="inline">${MODERATION_DECISIONS.map((x) => html`<button type="submit" name="decision" value="${x}"${x === 'overturned' ? html` class="danger" data-confirm="Overturn this ${a.outcome} result for ${a.moduleCode}?"` : ''} aria-label="${x === 'upheld' ? 'Uphold' : 'Overturn'} ${a.moduleCode} ${a.outcome}">${x === 'upheld' ? 'Uphold' : 'Overturn'}</button>`)}</div></form>`;
}

/**
 * Moderation (docs/dashboard.md): the drawn samples with their due dates, drawing one (the API's recorded draw),
 * and a sample's assessments with a decision form for each one not yet moderated.
 */
export function moderationPages(r: PageRoutes, d: DashboardDeps): void {
  const list = async (s: SessionContext, notice?: string) => {
    const [samples, programmes] = await Promise.all([
      d.training.listModerationSamples.execute(s.actor, {}, ALL),
      d.training.listProgrammes.execute(s.actor, {}, ALL),
    ]);
    const rows = [...samples.items].sort((a, b) => (a.dueBy < b.dueBy ? -1 : 1));
    return page({
      title: 'Moderation',
      current: '/dashboard/moderation',
      session: s,
      notice: notice ? { text: notice, error: true } : null,
      body: html`${when(can(s, 'assessments:moderate') && programmes.items.length > 0, () => drawForm(s, programmes.items, d.now().toISOString().slice(0, 10)))}
<h2>Samples, soonest due first</h2>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Programme</th><th scope="col">Due by</th><th scope="col">Results in sample</th><th scope="col">Of</th><th scope="col">Drawn</th></tr></thead><tbody>
${rows.map((x: ModerationSampleView) => html`<tr><td><a href="/dashboard/moderation/${x.id}">${x.programmeCode} sample of ${x.percent}%</a></td><td>${x.dueBy}</td><td>${x.assessmentIds.length}</td><td>${x.population}</td><td>${dateTime(x.drawnAt, zoneOf(s))}</td></tr>`)}
</tbody></table></div>${when(rows.length === 0, () => html`<p class="muted">No sample drawn yet.</p>`)}`,
    });
  };

  const one = async (s: SessionContext, id: string, n: number, notice?: string) => {
    const sample = await d.training.getModerationSample.execute(s.actor, id);
    // A page of the sample's results (each row has its decision form), in the sample's order: one read for them and
    // one for their learners' names (docs/dashboard.md, "Pages").
    const total = sample.assessmentIds.length;
    const pages = Math.max(1, Math.ceil(total / SAMPLE_PAGE));
    const at = Math.min(n, pages - 1);
    const shown = sample.assessmentIds.slice(at * SAMPLE_PAGE, (at + 1) * SAMPLE_PAGE);
    const assessments = await d.training.getAssessments.execute(s.actor, shown);
    const names = await namesFor(
      d,
      s,
      assessments.map((a) => a.learnerId),
    );
    const decide = can(s, 'assessments:moderate');
    return page({
      title: `Moderation sample: ${sample.programmeCode}`,
      current: '/dashboard/moderation',
      session: s,
      notice: notice ? { text: notice, error: true } : null,
      body: html`<p>${sample.assessmentIds.length} of ${sample.population} summative results (${sample.percent}%)${sample.from || sample.to ? `, assessed ${sample.from ?? '…'} to ${sample.to ?? '…'}` : ''}; due by <strong>${sample.dueBy}</strong>.</p>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Learner</th><th scope="col">Module</th><th scope="col">Date</th><th scope="col">Result</th><th scope="col">Assessor</th><th scope="col">Moderation</th></tr></thead><tbody>
${assessments.map(
  (
    a,
  ) => html`<tr><td>${person(names, a.learnerId)}</td><td>${a.moduleCode}</td><td>${a.assessmentDate}</td><td>${a.outcome}</td><td>${a.assessorEmail ?? '-'}</td>
<td>${a.moderation ? html`${a.moderation.decision}${a.moderation.notes ? html`: ${a.moderation.notes}` : ''}` : decide ? decisionForm(s, sample.id, a, at) : 'not yet moderated'}</td></tr>`,
)}
</tbody></table></div>
${when(
  pages > 1,
  () => html`<p>Results ${at * SAMPLE_PAGE + 1}-${at * SAMPLE_PAGE + shown.length} of ${total} · page ${at + 1} of ${pages}.</p>
<nav aria-label="Pages" class="inline">${when(at > 0, () => html`<a href="/dashboard/moderation/${sample.id}?page=${at - 1}">Previous</a>`)} ${when(at + 1 < pages, () => html`<a href="/dashboard/moderation/${sample.id}?page=${at + 1}">Next</a>`)}</nav>`,
)}
<p><a href="/dashboard/moderation">All samples</a></p>`,
    });
  };

  r.get('/dashboard/moderation', async (_ctx, s) => {
    requireScope(s, 'assessments:read');
    return list(s);
  });
  r.post('/dashboard/moderation', async (ctx, s, form) => {
    requireScope(s, 'assessments:moderate');
    try {
      const drawn = await d.training.drawModerationSample.execute(s.actor, {
        programmeCode: field(form, 'programmeCode'),
        from: field(form, 'from') ?? null,
        to: field(form, 'to') ?? null,
        percent: numberOr(field(form, 'percent')) as number | undefined,
        dueBy: field(form, 'dueBy') ?? null,
      });
      return { redirect: `/dashboard/moderation/${drawn.id}` };
    } catch (e) {
      ctx.status = 400;
      return list(s, refusal(e));
    }
  });
  r.get('/dashboard/moderation/:id', async (ctx, s) => {
    requireScope(s, 'assessments:read');
    return one(s, ctx.params.id!, pageNumber(ctx.query.page));
  });
  r.post('/dashboard/moderation/:id/:assessment', async (ctx, s, form) => {
    requireScope(s, 'assessments:moderate');
    try {
      await d.training.moderateAssessment.execute(s.actor, ctx.params.assessment!, {
        decision: field(form, 'decision'),
        notes: field(form, 'notes') ?? '',
        moderatorEmail: s.user.email,
      });
    } catch (e) {
      ctx.status = 400;
      return one(s, ctx.params.id!, pageNumber(ctx.query.page), refusal(e));
    }
    // Back to the page the decision was made on.
    const n = pageNumber(ctx.query.page);
    return { redirect: `/dashboard/moderation/${ctx.params.id}${n > 0 ? `?page=${n}` : ''}` };
  });
}

import type { LearnerName } from '@fundi/application/learners';
import type { SessionContext } from '@fundi/application/staff';
import { historyTable } from '../audit/history-table.js';
import { DomainError, isDomainError } from '@fundi/domain';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { bytes, dateTime, html, when } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { can, field, requireScope, zoneOf } from '../dashboard/web.js';
import { describe } from '../tenants/api-key-pages.js';
import { namesFor, person } from '../dashboard/forms/person.js';
import { age } from '../dashboard/forms/age.js';

const DECISIONS = [
  ['approved', 'Approve'],
  ['revision_requested', 'Request revision'],
  ['rejected', 'Reject'],
] as const;

/** A record made by an `evidence` import whose file has not arrived: nothing to preview or review yet. */
function awaitingFile(
  s: SessionContext,
  names: Map<string, LearnerName>,
  e: Awaited<ReturnType<DashboardDeps['evidence']['getEvidence']['execute']>>,
  notice?: { text: string; error?: boolean },
) {
  return page({
    title: e.filename,
    current: '/dashboard/evidence',
    session: s,
    notice,
    body: html`<div class="card"><p>Learner ${person(names, e.learnerId)}, module ${e.moduleId}.</p>
<p>Status: <strong>awaiting upload</strong>: this record was imported and its file has not been uploaded yet.</p>
${when(!!e.description, () => html`<p>${e.description}</p>`)}</div>
<p><a href="/dashboard/evidence">Back to the queue</a></p>`,
  });
}

/** The review queue (current versions awaiting review, oldest first) and one piece of evidence with its preview. */
export function evidencePages(r: PageRoutes, d: DashboardDeps): void {
  r.get('/dashboard/evidence', async (_ctx, s) => {
    requireScope(s, 'evidence:read');
    const queue = await d.evidence.listEvidence.execute(
      s.actor,
      { status: 'submitted' },
      { kind: 'offset', offset: 0, limit: 100 },
    );
    const names = await namesFor(
      d,
      s,
      queue.items.map((e) => e.learnerId),
    );
    const now = d.now().getTime();
    return page({
      title: 'Evidence awaiting review',
      current: '/dashboard/evidence',
      session: s,
      body: html`<p>${queue.total} piece${queue.total === 1 ? '' : 's'} of evidence awaiting review.</p>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">File</th><th scope="col">Learner</th><th scope="col">Module</th><th scope="col">Version</th><th scope="col">Uploaded</th><th scope="col">Waiting</th></tr></thead><tbody>
${queue.items.map(
  (e) =>
    html`<tr><td><a href="/dashboard/evidence/${e.id}">${e.filename}</a></td><td>${person(names, e.learnerId)}</td><td>${e.moduleId}</td><td>${e.version}</td><td>${dateTime(e.createdAt, zoneOf(s))}</td><td>${age(now, e.createdAt)}</td></tr>`,
)}
</tbody></table></div>`,
    });
  });

  const detail = async (
    ctx: { ip: string },
    s: SessionContext,
    id: string,
    notice?: { text: string; error?: boolean },
  ) => {
    requireScope(s, 'evidence:read');
    const e = await d.evidence.getEvidence.execute(s.actor, id);
    const names = await namesFor(d, s, [e.learnerId]);
    if (e.status === 'awaiting_upload') return awaitingFile(s, names, e, notice);
    // The preview is the API's signed URL (same origin, one hour), issued and audited like the API's.
    const grant = await d.evidence.downloadUrl.execute(s.actor, id, ctx.ip);
    const history =
      can(s, 'audit:read') && d.audit
        ? await d.audit.list(s.actor, { entityId: id }, { kind: 'offset', offset: 0, limit: 25 })
        : null;
    const preview =
      e.contentType === 'application/pdf'
        ? html`<object class="preview pdf" data="${grant.url}?inline=1" type="application/pdf" aria-label="Preview of ${e.filename}"><p>This browser does not show PDFs in the page: open the file below.</p></object>`
        : e.contentType.startsWith('image/') && e.contentType !== 'image/svg+xml'
          ? html`<img class="preview" src="${grant.url}" alt="Preview of ${e.filename}">`
          : null;
    return page({
      title: e.filename,
      current: '/dashboard/evidence',
      session: s,
      notice,
      body: html`<div class="card"><p>Learner ${person(names, e.learnerId)}, module ${e.moduleId}, version ${e.version}, ${bytes(e.size)}, ${e.contentType}.</p>
<p>Status: <strong>${e.status.replace('_', ' ')}</strong>${e.feedback ? html` · Feedback: ${e.feedback}` : ''}</p>
${preview}
<p><a href="${grant.url}">Open the file</a> <span class="muted">(link valid until ${dateTime(grant.expiresAt, zoneOf(s))})</span></p></div>
${when(
  can(s, 'evidence:review') && e.status === 'submitted',
  () => html`<form class="card" method="post" action="/dashboard/evidence/${e.id}/review">${csrf(s)}<h2>Review</h2>
<label for="feedback">Feedback (required when requesting a revision)</label><textarea id="feedback" name="feedback" rows="3" maxlength="2000"></textarea>
<div class="inline">${DECISIONS.map(([v, label]) => html`<button type="submit" name="status" value="${v}"${v === 'rejected' ? html` class="danger" data-confirm="Reject ${e.filename}?"` : ''}>${label}</button>`)}</div></form>`,
)}
${when(history, () => html`<h2>History</h2>${historyTable(history!.items, zoneOf(s))}`)}
<p><a href="/dashboard/evidence">Back to the queue</a></p>`,
    });
  };

  r.get('/dashboard/evidence/:id', (ctx, s) => detail(ctx, s, ctx.params.id!));
  r.post('/dashboard/evidence/:id/review', async (ctx, s, form) => {
    requireScope(s, 'evidence:review');
    try {
      const status = field(form, 'status');
      const feedback = field(form, 'feedback');
      // The API takes a revision request without a note; the dashboard asks the reviewer to say what to change.
      if (status === 'revision_requested' && !feedback?.trim())
        throw DomainError.invalid('feedback', 'is required when requesting a revision: say what to change');
      await d.evidence.reviewEvidence.execute(s.actor, ctx.params.id!, { status, feedback });
    } catch (e) {
      if (isDomainError(e) && (e.kind === 'invalid' || e.kind === 'conflict'))
        return detail(ctx, s, ctx.params.id!, { text: describe(e), error: true });
      throw e;
    }
    return { redirect: `/dashboard/evidence/${ctx.params.id}` };
  });
}

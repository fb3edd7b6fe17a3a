import type { LogbookEntryView, PortalSessionContext } from '@fundi/application';
import { DomainError, isDomainError, type LogbookHours } from '@fundi/domain';
import { html, when } from '../../dashboard/html.js';
import type { PortalHttpDeps, PortalRoutes } from '../portal-deps.js';
import { portalCsrf, portalPage } from '../portal-layout.js';
import { EN } from '../portal-strings.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;
const value = (form: URLSearchParams, name: string) => (form.get(name) ?? '').trim();

function entryLine(e: LogbookEntryView) {
  return html`<li>${e.date}: ${e.hours} h · ${EN.entryStatus[e.status] ?? e.status}<br><span class="muted">${e.activity}</span>${when(e.signOff?.comment, () => html`<br><span class="muted">${EN.comment}: ${e.signOff!.comment}</span>`)}</li>`;
}

function moduleCard(s: PortalSessionContext, h: LogbookHours, entries: readonly LogbookEntryView[]) {
  const mine = entries.filter((e) => e.moduleCode === h.moduleCode);
  const drafts = mine.filter((e) => e.status === 'draft' || e.status === 'queried');
  const id = h.moduleCode.replace(/[^\w-]/g, '-');
  const last = mine.at(-1);
  return html`<section class="card" aria-labelledby="m-${id}"><h2 id="m-${id}">${h.moduleCode}</h2>
<p>${EN.logbookHours(h.logged, h.signed, h.required)}${when(h.ready, () => html` · <span class="ok">${EN.ready}</span>`)}</p>
<ul class="modules">${mine.map(entryLine)}</ul>
${when(
  drafts.length > 0,
  () => html`<form method="post" action="/learn/logbook/submit">${portalCsrf(s)}<input type="hidden" name="moduleCode" value="${h.moduleCode}">
<button type="submit">${EN.submitDrafts}</button></form>`,
)}
<details><summary>${EN.addEntry}</summary><form method="post" action="/learn/logbook">${portalCsrf(s)}
<input type="hidden" name="moduleCode" value="${h.moduleCode}">
<label for="d-${id}">${EN.date}</label><input id="d-${id}" name="date" type="date" required>
<label for="h-${id}">${EN.hours}</label><input id="h-${id}" name="hours" type="number" min="0.25" max="24" step="0.25" required>
<label for="a-${id}">${EN.activity}</label><textarea id="a-${id}" name="activity" rows="2" maxlength="2000" required></textarea>
<label for="w-${id}">${EN.workplace}</label><input id="w-${id}" name="workplace" required maxlength="200" value="${last?.workplace ?? s.learner.employer ?? ''}">
<label for="sn-${id}">${EN.supervisorName}</label><input id="sn-${id}" name="supervisorName" required maxlength="200" value="${last?.supervisor.name ?? ''}">
<label for="se-${id}">${EN.supervisorEmail}</label><input id="se-${id}" name="supervisorEmail" type="email" value="${last?.supervisor.email ?? ''}">
<label for="sm-${id}">${EN.supervisorMobile}</label><input id="sm-${id}" name="supervisorMobile" type="tel" value="${last?.supervisor.mobile ?? ''}">
<button type="submit">${EN.addEntry}</button></form></details></section>`;
}

/**
 * The learner's workplace logbook: hours per workplace module (logged, signed, required), their entries, a form to
 * log a day, and sending the unsigned ones to the supervisor. Always the session's learner.
 */
export function logbookPages(r: PortalRoutes, d: PortalHttpDeps): void {
  const page = async (s: PortalSessionContext, notice: { text: string; error?: boolean } | null) => {
    const [hours, entries] = await Promise.all([
      d.logbooks.progress.forLearner(s.actor, s.learner.id),
      d.logbooks.entries.list(s.actor, { learnerId: s.learner.id }, ALL),
    ]);
    return portalPage({
      title: EN.logbook,
      session: s,
      notice,
      body: html`${hours.map((h) => moduleCard(s, h, entries.items))}<p><a href="/learn">${EN.back}</a></p>`,
    });
  };

  r.get('/learn/logbook', async (ctx, s) =>
    page(
      s,
      ctx.query.done === 'logged' ? { text: EN.logged } : ctx.query.done === 'sent' ? { text: EN.submitted } : null,
    ),
  );

  r.post('/learn/logbook', async (ctx, s, form) => {
    try {
      await d.logbooks.entries.create(s.actor, {
        learnerId: s.learner.id,
        moduleCode: value(form, 'moduleCode'),
        date: value(form, 'date'),
        hours: Number(value(form, 'hours')),
        activity: value(form, 'activity'),
        workplace: value(form, 'workplace'),
        supervisor: {
          name: value(form, 'supervisorName'),
          email: value(form, 'supervisorEmail') || null,
          mobile: value(form, 'supervisorMobile') || null,
        },
      });
    } catch (e) {
      if (!isDomainError(e) || e.kind !== 'invalid') throw e;
      ctx.status = 400;
      return page(s, { text: e.details.map((x) => `${x.field}: ${x.message}`).join('; ') || e.message, error: true });
    }
    return { redirect: '/learn/logbook?done=logged' };
  });

  r.post('/learn/logbook/submit', async (_ctx, s, form) => {
    const moduleCode = value(form, 'moduleCode');
    const mine = await d.logbooks.entries.list(s.actor, { learnerId: s.learner.id, moduleCode }, ALL);
    const open = mine.items.filter((e) => e.status === 'draft' || e.status === 'queried');
    if (open.length === 0) throw DomainError.notFound('logbook entry', moduleCode);
    for (const e of open) await d.logbooks.entries.submit(s.actor, e.id);
    return { redirect: '/learn/logbook?done=sent' };
  });
}

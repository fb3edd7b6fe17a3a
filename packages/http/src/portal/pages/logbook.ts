import type { LogbookEntryView, OpenEntriesFilter } from '@fundi/application/logbooks';
import type { PortalSessionContext } from '@fundi/application/portal';
import { DomainError, dayIn, isDomainError, timeZoneOf } from '@fundi/domain';
import type { LogbookHours } from '@fundi/domain/logbooks';
import { html, when } from '../../dashboard/html.js';
import type { PortalHttpDeps, PortalRoutes } from '../portal-deps.js';
import { portalCsrf, portalPage } from '../portal-layout.js';
import { EN } from '../portal-strings.js';

const value = (form: URLSearchParams, name: string) => (form.get(name) ?? '').trim();

function entryLine(e: LogbookEntryView) {
  return html`<li>${e.date}: ${e.hours} h · ${EN.entryStatus[e.status] ?? e.status}<br><span class="muted">${e.activity}</span>${when(e.signOff?.comment, () => html`<br><span class="muted">${EN.comment}: ${e.signOff!.comment}</span>`)}</li>`;
}

/** Entries a module's card shows on the logbook page: the latest days; the rest are a link away. */
export const RECENT_ENTRIES = 20;
/** Entries per page when one module's entries are listed in full. */
export const ENTRIES_PER_PAGE = 50;

/** Which of a module's entries a card lists: the latest few, or one page of them all. */
type Listing = { kind: 'recent' } | { kind: 'page'; page: number };

const byDate = (a: LogbookEntryView, b: LogbookEntryView) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id);

const moduleLink = (code: string, page?: number) =>
  `/learn/logbook?module=${encodeURIComponent(code)}${page ? `&page=${page}` : ''}`;

/** The card's list of entries in date order, with the way to the others when it does not show them all. */
function entryList(h: LogbookHours, mine: readonly LogbookEntryView[], listing: Listing) {
  if (listing.kind === 'recent') {
    const shown = mine.slice(-RECENT_ENTRIES);
    return html`<ul class="modules">${shown.map(entryLine)}</ul>${when(
      shown.length < mine.length,
      () =>
        html`<p>${EN.latestOf(shown.length, mine.length)} <a href="${moduleLink(h.moduleCode)}">${EN.allEntries(h.moduleCode)}</a></p>`,
    )}`;
  }
  const pages = Math.max(1, Math.ceil(mine.length / ENTRIES_PER_PAGE));
  const page = Math.min(listing.page, pages);
  const shown = mine.slice((page - 1) * ENTRIES_PER_PAGE, page * ENTRIES_PER_PAGE);
  return html`<ul class="modules">${shown.map(entryLine)}</ul>
<nav class="pager" aria-label="${EN.entryPages}"><span>${EN.pageOf(page, pages)}</span>${when(
    page > 1,
    () => html` <a href="${moduleLink(h.moduleCode, page - 1)}">${EN.earlierEntries}</a>`,
  )}${when(page < pages, () => html` <a href="${moduleLink(h.moduleCode, page + 1)}">${EN.laterEntries}</a>`)}</nav>`;
}

function moduleCard(s: PortalSessionContext, h: LogbookHours, entries: readonly LogbookEntryView[], listing: Listing) {
  const mine = entries.filter((e) => e.moduleCode === h.moduleCode).sort(byDate);
  const drafts = mine.filter(open);
  const id = h.moduleCode.replace(/[^\w-]/g, '-');
  const last = mine.at(-1);
  return html`<section class="card" aria-labelledby="m-${id}"><h2 id="m-${id}">${h.moduleCode}</h2>
<p>${EN.logbookHours(h.logged, h.signed, h.required)}${when(h.ready, () => html` · <span class="ok">${EN.ready}</span>`)}</p>
${entryList(h, mine, listing)}
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

const open = (e: LogbookEntryView) => e.status === 'draft' || e.status === 'queried';

/** The Monday of a date's week (YYYY-MM-DD, weeks from Monday to Sunday as on a timesheet). */
export function mondayOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}
const plusDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** One button per week that has entries still to send, this week first, each sending that week's entries together. */
function weekForms(s: PortalSessionContext, entries: readonly LogbookEntryView[], today: string) {
  const weeks = new Map<string, number>();
  for (const e of entries.filter(open)) weeks.set(mondayOf(e.date), (weeks.get(mondayOf(e.date)) ?? 0) + 1);
  const current = mondayOf(today);
  const order = [...weeks.keys()].sort((a, b) => (a === current ? -1 : b === current ? 1 : b.localeCompare(a)));
  if (!order.length) return html``;
  return html`<section class="card" aria-label="${EN.thisWeek}">${order.map(
    (
      monday,
    ) => html`<form method="post" action="/learn/logbook/submit-week">${portalCsrf(s)}<input type="hidden" name="week" value="${monday}">
<button type="submit">${monday === current ? `${EN.thisWeek} (${weeks.get(monday)})` : EN.submitWeek(monday, plusDays(monday, 6), weeks.get(monday)!)}</button></form>`,
  )}</section>`;
}

/**
 * The learner's workplace logbook: hours per workplace module (logged, signed, required), their entries, a form to
 * log a day, and sending the unsigned ones to the supervisor. Always the session's learner.
 */
export function logbookPages(r: PortalRoutes, d: PortalHttpDeps): void {
  const read = (s: PortalSessionContext) =>
    Promise.all([
      d.logbooks.progress.execute(s.actor, s.learner.id),
      d.logbooks.learnerLogbook.execute(s.actor, s.learner.id),
    ]);

  /** The logbook: every workplace module with its latest entries, the weeks to send, and the forms. */
  const page = async (s: PortalSessionContext, notice: { text: string; error?: boolean } | null) => {
    const [hours, entries] = await read(s);
    return portalPage({
      title: EN.logbook,
      session: s,
      notice,
      body: html`${weekForms(s, entries, dayIn(d.now(), timeZoneOf(s.tenant)))}${hours.map((h) => moduleCard(s, h, entries, { kind: 'recent' }))}<p><a href="/learn">${EN.back}</a></p>`,
    });
  };

  /** One workplace module's entries, a page at a time (null when the learner has no such module). */
  const modulePage = async (s: PortalSessionContext, moduleCode: string, n: number) => {
    const [hours, entries] = await read(s);
    const h = hours.find((x) => x.moduleCode === moduleCode);
    if (!h) return null;
    return portalPage({
      title: `${EN.logbook}: ${h.moduleCode}`,
      session: s,
      notice: null,
      body: html`${moduleCard(s, h, entries, { kind: 'page', page: n })}<p><a href="/learn/logbook">${EN.backToLogbook}</a></p>`,
    });
  };

  r.get('/learn/logbook', async (ctx, s) => {
    if (typeof ctx.query.module === 'string') {
      const n = Number(ctx.query.page ?? 1);
      const one = await modulePage(s, ctx.query.module, Number.isInteger(n) && n >= 1 ? n : 1);
      if (one) return one;
      ctx.status = 404;
      return page(s, { text: EN.noSuchModule, error: true });
    }
    const [n, links] = [Number(ctx.query.entries), Number(ctx.query.links)];
    const sent = n > 0 && links > 0 ? EN.submittedMany(n, links) : EN.submitted;
    return page(
      s,
      ctx.query.done === 'logged' ? { text: EN.logged } : ctx.query.done === 'sent' ? { text: sent } : null,
    );
  });

  /**
   * Sends the learner's unsigned entries that `filter` keeps, however many: groups of at most 50 per supervisor,
   * each its own link, in one transaction (docs/api.md, "Logbooks").
   */
  const send = async (s: PortalSessionContext, filter: OpenEntriesFilter) => {
    const r = await d.logbooks.submitOpenLogbookEntries.execute(s.actor, s.learner.id, filter);
    return { redirect: `/learn/logbook?done=sent&entries=${r.data.length}&links=${r.submissions.length}` };
  };

  r.post('/learn/logbook/submit-week', async (_ctx, s, form) => {
    const week = value(form, 'week');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(week) || Number.isNaN(Date.parse(week)))
      throw DomainError.invalid('week', 'must be a date');
    const monday = mondayOf(week);
    const sunday = plusDays(monday, 6);
    return send(s, { from: monday, to: sunday });
  });

  r.post('/learn/logbook', async (ctx, s, form) => {
    try {
      await d.logbooks.createLogbookEntry.execute(s.actor, {
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
    return send(s, { moduleCode: value(form, 'moduleCode') });
  });
}

import type { LearnerName } from '@fundi/application/learners';
import type { SessionContext } from '@fundi/application/staff';
import { isDomainError } from '@fundi/domain';
import type { Context } from 'koa';
import type { Answer, DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { type Html, html } from '../dashboard/html.js';
import { page } from '../dashboard/layout.js';
import { sectionsIn } from '../dashboard/page-sections.js';
import { can, field, requireScope } from '../dashboard/web.js';
import { describe } from '../tenants/api-key-pages.js';
import type { BulkAction } from './learner-bulk-slots.js';

export type { BulkAction, ChosenLearners } from './learner-bulk-slots.js';

/** At most one page of the learners list is selected at once; a larger post is refused. */
const MAX_SELECTED = 100;

/** The learners ticked in the list (`learner` fields), each once, in the order posted. */
function selection(form: URLSearchParams): string[] {
  return [...new Set(form.getAll('learner').map((v) => v.trim()))].filter((v) => v.length > 0);
}

/** The selection carried on to an action's own form. */
export const hidden = (ids: readonly string[]) =>
  html`${ids.map((id) => html`<input type="hidden" name="learner" value="${id}">`)}`;

function who(names: Map<string, LearnerName>, id: string): Html {
  const n = names.get(id);
  return n
    ? html`<a href="/dashboard/learners/${id}">${n.name}</a>${n.idNumber ? html` <span class="muted nowrap">${n.idNumber}</span>` : ''}`
    : html`<span class="muted">a learner that no longer exists</span>`;
}

/** The page after a bulk action: what happened to each learner. */
export function resultPage(
  s: SessionContext,
  title: string,
  names: Map<string, LearnerName>,
  rows: { id: string; result: string; refused: boolean }[],
  after?: Html,
): Html {
  const refused = rows.filter((r) => r.refused).length;
  return page({
    title,
    current: '/dashboard/learners',
    session: s,
    notice: {
      text: `${rows.length - refused} of ${rows.length} done${refused ? `; ${refused} refused (see below)` : ''}.`,
      error: refused > 0,
    },
    body: html`<div class="table" tabindex="0"><table><thead><tr><th scope="col">Learner</th><th scope="col">Result</th></tr></thead><tbody>
${rows.map((r) => html`<tr><td>${who(names, r.id)}</td><td>${r.result}</td></tr>`)}
</tbody></table></div>${after ?? ''}<p><a href="/dashboard/learners">Back to the learners</a></p>`,
  });
}

/** Every capability's bulk action, in order (the button of one the role may not take is left out of the list). */
async function allActions(d: DashboardDeps, s: SessionContext): Promise<BulkAction[]> {
  return (await sectionsIn(d, s, 'learnerBulk', null)).flatMap((a) => a ?? []);
}

/** The list's buttons for what the role may do with a selection, or null when it may do none of it. */
export async function bulkActions(d: DashboardDeps, s: SessionContext): Promise<Html | null> {
  const all = await allActions(d, s);
  if (!all.some((a) => can(s, a.scope))) return null;
  return html`<fieldset><legend>With the selected learners</legend>
${all.map((a, i) =>
  can(s, a.scope)
    ? html`<button type="submit" name="action" value="${a.value}"${a.secondary ? html` class="secondary"` : ''}>${a.label}</button>${i < all.length - 1 ? ' ' : ''}`
    : null,
)}
</fieldset>`;
}

/** The words of a refusal for one learner of a bulk action; anything but a refusal is rethrown. */
export function refusedFor(e: unknown): string {
  if (isDomainError(e) && e.kind !== 'unavailable' && e.kind !== 'rate_limited') return `refused: ${describe(e)}`;
  throw e;
}

/**
 * The learners of a bulk action's post, with their names; or, when none or too many are selected, the page that says
 * so (400).
 */
export async function chosenLearners(
  ctx: Context,
  d: DashboardDeps,
  s: SessionContext,
  form: URLSearchParams,
): Promise<{ ids: string[]; names: Map<string, LearnerName>; refused: Html | null }> {
  requireScope(s, 'learners:read');
  const ids = selection(form);
  if (ids.length === 0 || ids.length > MAX_SELECTED) {
    ctx.status = 400;
    return {
      ids,
      names: new Map<string, LearnerName>(),
      refused: page({
        title: 'Learners',
        current: '/dashboard/learners',
        session: s,
        notice: {
          text: ids.length === 0 ? 'Select at least one learner first.' : `Select at most ${MAX_SELECTED} learners.`,
          error: true,
        },
        body: html`<p><a href="/dashboard/learners">Back to the learners</a></p>`,
      }),
    };
  }
  return { ids, names: await d.learners.learnerNames.execute(s.actor, ids), refused: null };
}

/** `a, b or c`. */
const either = (words: readonly string[]) =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}` : (words[0] ?? '');

/**
 * Bulk actions on a selection of the learners list (docs/dashboard.md, "Pages"): each capability's (enrol them in a
 * programme, send them a notification, export them...). Each is the API's own call per learner, so its rules and
 * refusals hold.
 */
export function learnerBulkPages(r: PageRoutes, d: DashboardDeps): void {
  r.post('/dashboard/learners/bulk', async (ctx, s, form): Promise<Answer> => {
    const { ids, names, refused } = await chosenLearners(ctx, d, s, form);
    if (refused) return refused;
    const all = await allActions(d, s);
    const action = all.find((a) => a.value === field(form, 'action'));
    if (action) {
      requireScope(s, action.scope);
      const list = html`<ul>${ids.map((id) => html`<li>${who(names, id)}</li>`)}</ul>`;
      return action.start(ctx, s, { ids, names, list });
    }
    ctx.status = 400;
    return page({
      title: 'Learners',
      current: '/dashboard/learners',
      session: s,
      notice: { text: `action must be ${either(all.map((a) => a.value))}`, error: true },
      body: html`<p><a href="/dashboard/learners">Back to the learners</a></p>`,
    });
  });
}

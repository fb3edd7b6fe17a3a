import type { PortalSessionContext } from '@fundi/application/portal';
import type { EnrolmentView } from '@fundi/application/training';
import { OPEN_STATUSES } from '@fundi/domain/training';
import { type Html, html, when } from '../../dashboard/html.js';
import { UPLOAD_SCRIPT_PATH } from '../portal-assets.js';
import { portalPage } from '../portal-layout.js';
import type { PortalHttpDeps, PortalRoutes } from '../portal-deps.js';
import { portalSectionsIn } from '../portal-sections.js';
import { EN } from '../portal-strings.js';
import type { HomeModuleAt } from './home-slots.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;

/** What the sections show under one module, in their order. */
type ModuleParts = readonly (((m: HomeModuleAt) => Html) | null)[];

/** Competent, or what is still needed (the latest summative result; moderation is staff-only and not shown). */
function moduleItem(at: HomeModuleAt, parts: ModuleParts) {
  const m = at.module;
  return html`<li><h3>${m.code} ${m.name}</h3>
${m.latestOutcome === 'C' ? html`<p class="ok">${EN.result}: competent</p>` : html`<p class="todo">${EN.stillNeeded}: ${m.latestOutcome ? `${EN.result} ${m.latestOutcome}` : EN.notAssessed}</p>`}
${parts.map((part) => part?.(at))}</li>`;
}

/** One programme of the learner: its progress, and each module with what the sections show under it. */
function programme(e: EnrolmentView, parts: ModuleParts) {
  const open = OPEN_STATUSES.includes(e.status);
  return html`<section class="card" aria-labelledby="p-${e.id}"><h2 id="p-${e.id}">${e.programmeCode}</h2>
<p>${EN.competentOf(e.progress.competent, e.progress.total)} · ${e.status.replace('_', ' ')}, ${EN.from} ${e.startDate}</p>
<ul class="modules">${e.progress.modules.map((module) => moduleItem({ enrolment: e, module, open }, parts))}</ul></section>`;
}

/**
 * The learner's own programmes with progress per module, and under each module what the capabilities' sections show
 * (`homeModule`: their evidence and its upload forms). Everything is read with the session's learner id, never one
 * from the request.
 */
export function homePages(r: PortalRoutes, d: PortalHttpDeps): void {
  r.get('/learn', async (ctx, s: PortalSessionContext) => {
    const [enrolments, parts, notices] = await Promise.all([
      d.training.listEnrolments.execute(s.actor, { learnerId: s.learner.id }, ALL),
      portalSectionsIn(d, s, 'homeModule', {}),
      portalSectionsIn(d, s, 'homeNotice', { query: ctx.query }),
    ]);
    const notice = notices.find((n) => n !== null);
    return portalPage({
      title: EN.home,
      session: s,
      script: UPLOAD_SCRIPT_PATH,
      notice: notice ? { text: notice } : null,
      body: html`<p><a href="/learn/details">${EN.details}</a> · <a href="/learn/logbook">${EN.logbook}</a> · <a href="/learn/statements">${EN.statements}</a></p>
${enrolments.items.map((e) => programme(e, parts))}${when(enrolments.items.length === 0, () => html`<p>${EN.noEnrolments}</p>`)}`,
    });
  });
}

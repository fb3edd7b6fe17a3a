import { actingFrom } from '@fundi/application';
import type { PortalSessionContext } from '@fundi/application/portal';
import { DomainError, isDomainError } from '@fundi/domain';
import type { Context, Middleware } from 'koa';
import type { Answer } from '../dashboard/dashboard-deps.js';
import { Html, html } from '../dashboard/html.js';
import { csrfRefused, formBody, sameToken, servePages } from '../dashboard/web.js';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS, isRequestTimeout } from '../middleware/body-progress.js';
import { multipartUpload } from '../middleware/multipart-upload.js';
import { RouteTable } from '../route-table.js';
import { detailsPages } from './pages/details.js';
import { homePages } from './pages/home.js';
import { logbookPages } from './pages/logbook.js';
import { signOffRoutes } from './pages/sign-off.js';
import { statementPages } from './pages/statements.js';
import { PORTAL_STYLES, UPLOAD_SCRIPT, UPLOAD_SCRIPT_PATH } from './portal-assets.js';
import type { PortalHttpDeps, PortalPages, PortalRoutes } from './portal-deps.js';
import { portalPage } from './portal-layout.js';
import { portalSectionsOf } from './portal-sections.js';
import { portalSignInRoutes, sendPortalPage } from './portal-sign-in-routes.js';
import { EN } from './portal-strings.js';
import { PORTAL_PATH, PORTAL_SESSION_COOKIE, portalCookie, safeNext } from './portal-web.js';
import { pageStatus } from '../forms/error-table.js';

function answer(ctx: Context, a: Answer): void {
  if (a instanceof Html) sendPortalPage(ctx, a);
  else if ('redirect' in a) {
    ctx.status = 303;
    ctx.redirect(a.redirect);
  } else throw new Error('the portal sends no files this way');
}

/**
 * The learner portal at `/learn` (docs/dashboard.md, "Learner portal"): server-rendered pages for one signed-in
 * learner, beside the dashboard, with their own session cookie and path. A dashboard session or an API key means
 * nothing here, and a portal session nothing there. Capabilities add their pages and their sections of the
 * portal's pages (`parts`, in the capability list's order); the portal names none of them.
 */
export function createPortal(deps: Omit<PortalHttpDeps, 'sections'>, parts: readonly PortalPages[]): Middleware {
  const d: PortalHttpDeps = { ...deps, sections: portalSectionsOf(parts) };
  const router = new RouteTable();
  const session = async (ctx: Context): Promise<PortalSessionContext | null> => {
    const token = portalCookie(ctx, PORTAL_SESSION_COOKIE);
    const s = token ? await d.portal.sessions.resolve(token) : null;
    // What the learner does here is audited as coming from the portal, with the request's address.
    return s && { ...s, actor: actingFrom(s.actor, 'portal', ctx.ip) };
  };
  /** The sign-in page for a page asked for without a session: the organisation the link names, and the page. */
  const signIn = (ctx: Context) => {
    const q = new URLSearchParams();
    if (typeof ctx.query.tenant === 'string') q.set('tenant', ctx.query.tenant);
    const next = safeNext(ctx.originalUrl);
    if (next && next !== PORTAL_PATH) q.set('next', next);
    const query = q.toString();
    return `/learn/sign-in${query ? `?${query}` : ''}`;
  };

  const routes: PortalRoutes = {
    get(path, h) {
      router.add('get', path, async (ctx) => {
        const s = await session(ctx);
        if (!s) return ctx.redirect(signIn(ctx));
        answer(ctx, await h(ctx, s));
      });
    },
    post(path, h) {
      router.add('post', path, async (ctx) => {
        const s = await session(ctx);
        if (!s) throw new DomainError('unauthorized', 'signed_out', EN.signedOut);
        const form = await formBody(ctx, d.bodyIdleTimeoutMs);
        if (!sameToken(form.get('_csrf'), s.csrfToken)) throw csrfRefused();
        answer(ctx, await h(ctx, s, form));
      });
    },
    upload(path, o, h) {
      router.add('post', path, async (ctx) => {
        const s = await session(ctx);
        if (!s) throw new DomainError('unauthorized', 'signed_out', EN.signedOut);
        const { fields, file } = await multipartUpload(
          ctx,
          { kind: 'multipart', field: o.field, maxBytes: o.maxBytes },
          d.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS,
        );
        if (!sameToken(fields._csrf, s.csrfToken)) {
          file.stream.resume();
          throw csrfRefused();
        }
        answer(ctx, await h(ctx, s, fields, { stream: file.stream, filename: file.filename }));
      });
    },
  };

  router.add('get', '/learn/assets/portal.css', async (ctx) => {
    ctx.type = 'text/css';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = PORTAL_STYLES;
  });
  router.add('get', UPLOAD_SCRIPT_PATH, async (ctx) => {
    ctx.type = 'text/javascript';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = UPLOAD_SCRIPT;
  });
  portalSignInRoutes(router, d);
  signOffRoutes(router, d);
  homePages(routes, d);
  for (const register of parts.flatMap((p) => p.pages ?? [])) register(routes, d);
  detailsPages(routes, d);
  logbookPages(routes, d);
  statementPages(routes, d);

  return servePages('/learn', router, session, (ctx, e, s) => errorPage(ctx, e, d, s));
}

function errorPage(ctx: Context, e: unknown, d: PortalHttpDeps, s: PortalSessionContext | null): void {
  const known = isDomainError(e);
  if (!known) d.logger.error({ requestId: ctx.state.requestId, err: e }, 'portal error');
  const status = known ? (isRequestTimeout(e) ? 408 : pageStatus(e.kind)) : 500;
  if (status === 408) ctx.set('Connection', 'close');
  const text = !known ? EN.problem : e.kind === 'not_found' ? EN.notFound : e.message;
  sendPortalPage(
    ctx,
    portalPage({
      title: EN.errorTitle,
      session: s,
      notice: { text, error: true },
      body: html`<p><a href="/learn">${EN.back}</a></p>`,
    }),
    status,
  );
}

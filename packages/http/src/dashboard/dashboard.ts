import { actingFrom } from '@fundi/application';
import type { SessionContext } from '@fundi/application/staff';
import { DomainError } from '@fundi/domain';
import type { Context, Middleware } from 'koa';
import { SCRIPT, STYLES } from './assets.js';
import type {
  DashboardDeps,
  DashboardPages,
  FormHandler,
  NavEntry,
  PageHandler,
  PageRoutes,
} from './dashboard-deps.js';
import { errorPage } from './error-page.js';
import { sectionsOf } from './page-sections.js';
import { withNavigation } from './layout.js';
import { send } from './send-answer.js';
import { signInRoutes } from './sign-in-routes.js';
import { multipartUpload } from '../middleware/multipart-upload.js';
import { RouteTable } from '../route-table.js';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS } from '../middleware/body-progress.js';
import { SESSION_COOKIE, cookie, csrfRefused, formBody, sameToken, servePages } from './web.js';

/** The navigation entries of every part, by order; two entries of one address are a programming error. */
export function navigationOf(parts: readonly DashboardPages[]): NavEntry[] {
  const entries = parts.flatMap((p) => p.nav ?? []);
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.href)) throw new Error(`Two dashboard navigation entries lead to ${e.href}`);
    seen.add(e.href);
  }
  return entries.sort((a, b) => a.order - b.order);
}

/**
 * The web dashboard (docs/dashboard.md): server-rendered pages at `/dashboard`, a second driving adapter beside
 * the JSON API that calls the same use cases with the signed-in staff user as the actor. Its pages and navigation
 * are the capabilities' (`parts`, docs/architecture.md "A capability's anatomy"), and so are the sections of its
 * shared pages; sign-in is its own.
 */
export function createDashboard(deps: Omit<DashboardDeps, 'sections'>, parts: readonly DashboardPages[]): Middleware {
  const d: DashboardDeps = { ...deps, sections: sectionsOf(parts) };
  const router = new RouteTable();
  const navigation = navigationOf(parts);
  const idleMs = d.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS;

  const session = async (ctx: Context): Promise<SessionContext | null> => {
    const token = cookie(ctx, SESSION_COOKIE);
    const s = token ? await d.staff.resolveSession.execute(token) : null;
    // What a page does is audited as coming from the dashboard, with the client's address.
    return s && withNavigation({ ...s, actor: actingFrom(s.actor, 'dashboard', ctx.ip) }, navigation);
  };

  const routes: PageRoutes = {
    get(path: string, h: PageHandler) {
      router.add('get', path, async (ctx) => {
        const s = await session(ctx);
        if (!s) return ctx.redirect(`/dashboard/sign-in?next=${encodeURIComponent(ctx.originalUrl)}`);
        send(ctx, await h(ctx, s));
      });
    },
    post(path: string, h: FormHandler) {
      router.add('post', path, async (ctx) => {
        const s = await session(ctx);
        if (!s) throw new DomainError('unauthorized', 'signed_out', 'You are signed out: sign in again');
        const form = await formBody(ctx, idleMs);
        if (!sameToken(form.get('_csrf'), s.csrfToken)) throw csrfRefused();
        send(ctx, await h(ctx, s, form));
      });
    },
    upload(path, o, h) {
      router.add('post', path, async (ctx) => {
        const s = await session(ctx);
        if (!s) throw new DomainError('unauthorized', 'signed_out', 'You are signed out: sign in again');
        const { fields, file } = await multipartUpload(
          ctx,
          { kind: 'multipart', field: o.field, maxBytes: o.maxBytes },
          idleMs,
        );
        if (!sameToken(fields._csrf, s.csrfToken)) {
          file.stream.resume();
          throw csrfRefused();
        }
        send(ctx, await h(ctx, s, fields, { stream: file.stream, filename: file.filename }));
      });
    },
  };

  router.add('get', '/dashboard/assets/app.css', async (ctx) => {
    ctx.type = 'text/css';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = STYLES;
  });
  router.add('get', '/dashboard/assets/app.js', async (ctx) => {
    ctx.type = 'text/javascript';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = SCRIPT;
  });

  signInRoutes(router, d, session, idleMs);

  for (const part of parts) for (const register of part.pages ?? []) register(routes, d);

  return servePages('/dashboard', router, session, (ctx, e, s) => errorPage(ctx, e, d, s));
}

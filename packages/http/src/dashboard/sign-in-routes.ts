import type { SessionContext } from '@fundi/application/staff';
import { isDomainError } from '@fundi/domain';
import type { Context } from 'koa';
import type { RouteTable } from '../route-table.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { signInPage } from './pages/sign-in.js';
import { passwordRoutes } from './password-routes.js';
import { send } from './send-answer.js';
import { signInAttempts } from './sign-in-attempts.js';
import { FORM_COOKIE, SESSION_COOKIE, cookie, csrfRefused, formBody, sameToken, setCookie } from './web.js';

const HERE = 'http://dashboard.invalid';

/**
 * Where sign-in leads: `next` when it is a dashboard page of this site once normalised as a browser would (dot
 * segments resolved, `%2e` read as a dot, tabs and line breaks dropped), written out as that normalised path and
 * query; anything else (another origin, `//host`, a backslash, a path that leaves /dashboard) leads to the overview.
 */
export function afterSignIn(next: string): string {
  if (!next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return '/dashboard';
  let url: URL;
  try {
    url = new URL(next, HERE);
  } catch {
    return '/dashboard';
  }
  const path = url.pathname;
  if (url.origin !== HERE || path.includes('//') || (path !== '/dashboard' && !path.startsWith('/dashboard/')))
    return '/dashboard';
  return `${path}${url.search}`;
}

/**
 * Sign-in and sign-out, the dashboard's own pages before a session (each attempt counted per client address and per
 * account), then the forgotten password and setting one (`passwordRoutes`).
 */
export function signInRoutes(
  router: RouteTable,
  d: DashboardDeps,
  session: (ctx: Context) => Promise<SessionContext | null>,
  idleMs: number,
): void {
  const { limits, overLimit } = signInAttempts(d);

  router.add('get', '/dashboard/sign-in', async (ctx) => {
    if (await session(ctx)) return ctx.redirect('/dashboard');
    const tenant = typeof ctx.query.tenant === 'string' ? ctx.query.tenant : undefined;
    const next = typeof ctx.query.next === 'string' ? ctx.query.next : undefined;
    send(ctx, signInPage(ctx, { tenant, next }));
  });

  router.add('post', '/dashboard/sign-in', async (ctx) => {
    const form = await formBody(ctx, idleMs);
    if (!sameToken(form.get('_csrf'), cookie(ctx, FORM_COOKIE))) throw csrfRefused();
    const tenant = (form.get('tenant') ?? '').trim().toLowerCase();
    const email = (form.get('email') ?? '').trim().toLowerCase();
    // Every attempt counts, per client address and per account, before the password is checked.
    const now = d.now().getTime();
    const over = await overLimit(ctx.ip, `signin:account:${tenant}/${email}`, limits.perAccount, now);
    if (over) {
      ctx.set('Retry-After', String(Math.max(1, over.resetAt - Math.floor(now / 1000))));
      send(
        ctx,
        signInPage(ctx, { tenant, email, error: 'Too many sign-in attempts: wait a few minutes and try again.' }),
      );
      ctx.status = 429;
      return;
    }
    try {
      const opened = await d.staff.signIn.execute({ tenant, email, password: form.get('password') ?? '' });
      setCookie(ctx, SESSION_COOKIE, opened.token, Math.floor((Date.parse(opened.expiresAt) - now) / 1000));
      setCookie(ctx, FORM_COOKIE, '', 0);
      send(ctx, { redirect: afterSignIn(form.get('next') ?? '') });
    } catch (e) {
      if (!isDomainError(e) || e.kind !== 'unauthorized') throw e;
      send(ctx, signInPage(ctx, { tenant, email, next: form.get('next') ?? undefined, error: e.message }));
      ctx.status = 401;
    }
  });

  router.add('post', '/dashboard/sign-out', async (ctx) => {
    const token = cookie(ctx, SESSION_COOKIE);
    const s = token ? await d.staff.resolveSession.execute(token) : null;
    const form = await formBody(ctx, idleMs);
    if (s && !sameToken(form.get('_csrf'), s.csrfToken)) throw csrfRefused();
    if (token) await d.staff.signOut.execute(token);
    setCookie(ctx, SESSION_COOKIE, '', 0);
    send(ctx, signInPage(ctx, { notice: 'You are signed out.', tenant: s?.tenant.slug }));
  });

  passwordRoutes(router, d, idleMs, overLimit);
}

import { actingFrom, type SessionContext } from '@fundi/application';
import { DomainError, isDomainError } from '@fundi/domain';
import type { Context, Middleware } from 'koa';
import { SCRIPT, STYLES } from './assets.js';
import type { Answer, DashboardDeps, FormHandler, PageHandler, PageRoutes } from './dashboard-deps.js';
import { Html, html } from './html.js';
import { page } from './layout.js';
import { apiKeyPages, describe } from './pages/api-keys.js';
import { enrolmentPages } from './pages/enrolments.js';
import { evidencePages } from './pages/evidence.js';
import { exportPages } from './pages/exports.js';
import { learnerPages } from './pages/learners.js';
import { learnerBulkPages } from './pages/learner-bulk.js';
import { recordingListPages } from './pages/recording-list.js';
import { learnerEditPages } from './pages/learner-edit.js';
import { learnerActionPages } from './pages/learner-actions.js';
import { overviewPages } from './pages/overview.js';
import { programmePages } from './pages/programmes.js';
import { moderationPages } from './pages/moderation.js';
import { readinessPages } from './pages/readiness.js';
import { forgotPasswordPage, setPasswordPage, signInPage } from './pages/sign-in.js';
import { settingsPages } from './pages/settings.js';
import { notificationPages } from './pages/notifications.js';
import { importPages } from './pages/imports.js';
import { hrSyncPages } from './pages/hr-sync.js';
import { usagePages } from './pages/usage.js';
import { auditPages } from './pages/audit.js';
import { statementPages } from './pages/statements.js';
import { multipartUpload } from '../middleware/upload.js';
import { RouteTable } from '../route-table.js';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS, isRequestTimeout } from '../middleware/body-progress.js';
import { UNAVAILABLE_RETRY_AFTER_S } from '../forms/error-table.js';
import { userPages } from './pages/users.js';
import { webhookPages } from './pages/webhooks.js';
import { FORM_COOKIE, SESSION_COOKIE, cookie, csrfRefused, formBody, sameToken, servePages, setCookie } from './web.js';

const STATUS: Record<string, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition: 409,
  rate_limited: 429,
  unavailable: 503,
};
const WINDOW_SECONDS = 15 * 60;

function send(ctx: Context, a: Answer): void {
  if (a instanceof Html) {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = a.value;
  } else if ('file' in a) {
    ctx.type = a.file.contentType;
    ctx.set('Content-Disposition', `attachment; filename="${a.file.filename.replace(/[^\w.-]/g, '_')}"`);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = a.file.open();
  } else {
    ctx.status = 303;
    ctx.redirect(a.redirect);
  }
}

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
 * The web dashboard (docs/dashboard.md): server-rendered pages at `/dashboard`, a second driving adapter beside
 * the JSON API that calls the same use cases with the signed-in staff user as the actor.
 */
export function createDashboard(d: DashboardDeps): Middleware {
  const router = new RouteTable();
  // An office behind one address signs in many people; an account is guessed at from anywhere.
  const limits = d.signInLimits ?? { perAddress: 100, perAccount: 20 };
  const idleMs = d.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS;

  const session = async (ctx: Context): Promise<SessionContext | null> => {
    const token = cookie(ctx, SESSION_COOKIE);
    const s = token ? await d.staff.resolveSession.execute(token) : null;
    // What a page does is audited as coming from the dashboard, with the client's address.
    return s && { ...s, actor: actingFrom(s.actor, 'dashboard', ctx.ip) };
  };

  /**
   * Counts one attempt against the client address (shared by sign-in and password reset) and against `accountKey`;
   * answers when the later of the two windows resets if either is over its limit, else null.
   */
  const overLimit = async (ip: string, accountKey: string, perAccount: number, now: number) => {
    const [byAddress] = await d.rateLimits.hit(
      `signin:ip:${ip}`,
      [{ seconds: WINDOW_SECONDS, limit: limits.perAddress }],
      now,
    );
    const [byAccount] = await d.rateLimits.hit(accountKey, [{ seconds: WINDOW_SECONDS, limit: perAccount }], now);
    return byAddress!.hits > limits.perAddress || byAccount!.hits > perAccount
      ? { resetAt: Math.max(byAddress!.resetAt, byAccount!.resetAt) }
      : null;
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

  router.add('get', '/dashboard/forgot-password', async (ctx) => {
    const tenant = typeof ctx.query.tenant === 'string' ? ctx.query.tenant : undefined;
    send(ctx, forgotPasswordPage(ctx, { tenant }));
  });

  router.add('post', '/dashboard/forgot-password', async (ctx) => {
    const form = await formBody(ctx, idleMs);
    if (!sameToken(form.get('_csrf'), cookie(ctx, FORM_COOKIE))) throw csrfRefused();
    const tenant = (form.get('tenant') ?? '').trim().toLowerCase();
    const email = (form.get('email') ?? '').trim().toLowerCase();
    // Counted with the sign-in attempts per address, and at most 3 per account, so the form cannot flood a mailbox.
    if (await overLimit(ctx.ip, `reset:account:${tenant}/${email}`, 3, d.now().getTime())) {
      send(ctx, forgotPasswordPage(ctx, { tenant, error: 'Too many requests: wait a few minutes and try again.' }));
      ctx.status = 429;
      return;
    }
    if (tenant && email) await d.notifications.notificationTriggers.requestPasswordReset(tenant, email);
    send(
      ctx,
      signInPage(ctx, {
        tenant,
        notice: 'If that account exists, we have emailed it a link to choose a new password. It works for one hour.',
      }),
    );
  });

  router.add('get', '/dashboard/set-password', async (ctx) => {
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    const user = token ? await d.staff.setPassword.peek(token) : null;
    if (!user) throw DomainError.forbidden('The link is not valid or has expired: ask an administrator for a new one');
    send(ctx, setPasswordPage(ctx, { token, email: user.email }));
  });

  router.add('post', '/dashboard/set-password', async (ctx) => {
    const form = await formBody(ctx, idleMs);
    if (!sameToken(form.get('_csrf'), cookie(ctx, FORM_COOKIE))) throw csrfRefused();
    const token = form.get('token') ?? '';
    try {
      await d.staff.setPassword.execute(token, form.get('password') ?? '');
    } catch (e) {
      const user = await d.staff.setPassword.peek(token);
      if (isDomainError(e) && e.kind === 'invalid' && user) {
        send(ctx, setPasswordPage(ctx, { token, email: user.email, error: describe(e) }));
        ctx.status = 400;
        return;
      }
      throw e;
    }
    send(ctx, signInPage(ctx, { notice: 'Your password is set: sign in.' }));
  });

  overviewPages(routes, d);
  apiKeyPages(routes, d);
  webhookPages(routes, d);
  programmePages(routes, d);
  learnerEditPages(routes, d);
  learnerBulkPages(routes, d);
  recordingListPages(routes, d);
  learnerPages(routes, d);
  if (d.statements) statementPages(routes, d);
  if (d.audit) auditPages(routes, d);
  learnerActionPages(routes, d);
  enrolmentPages(routes, d);
  moderationPages(routes, d);
  evidencePages(routes, d);
  exportPages(routes, d);
  readinessPages(routes, d);
  settingsPages(routes, d);
  notificationPages(routes, d);
  importPages(routes, d);
  hrSyncPages(routes, d);
  usagePages(routes, d);
  userPages(routes, d);

  return servePages('/dashboard', router, session, (ctx, e, s) => errorPage(ctx, e, d, s));
}

function errorPage(ctx: Context, e: unknown, d: DashboardDeps, s: SessionContext | null): void {
  const known = isDomainError(e);
  if (!known) d.logger.error({ requestId: ctx.state.requestId, err: e }, 'dashboard error');
  if (known && e.kind === 'unavailable') {
    d.logger.warn({ requestId: ctx.state.requestId, code: e.code, err: e.cause }, 'storage unavailable');
    ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S));
  }
  const status = known ? (isRequestTimeout(e) ? 408 : (STATUS[e.kind] ?? 400)) : 500;
  // A stalled form: what the client still sends of it is not waited for.
  if (status === 408) ctx.set('Connection', 'close');
  const text = !known
    ? 'Something went wrong on our side. Try again; if it keeps happening, tell your administrator.'
    : e.kind === 'not_found'
      ? 'This page or record does not exist.'
      : describe(e);
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page({
    title: status === 403 ? 'Not allowed' : status === 404 ? 'Not found' : status === 401 ? 'Signed out' : 'Problem',
    session: s,
    notice: { text, error: true },
    body: s
      ? html`<p><a href="/dashboard">Go to the overview</a></p>`
      : html`<p><a href="/dashboard">Go to the overview</a> · <a href="/dashboard/sign-in">Sign in</a></p>`,
  }).value;
}

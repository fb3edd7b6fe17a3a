import { readAddress } from '@fundi/application/portal';
import { isDomainError } from '@fundi/domain';
import type { Context } from 'koa';
import { csrfRefused, formBody, sameToken } from '../dashboard/web.js';
import type { RouteTable } from '../route-table.js';
import { codePage, continuePage, refusedPage, signInPage } from './pages/sign-in.js';
import { DEFAULT_PORTAL_LIMITS, type PortalHttpDeps } from './portal-deps.js';
import { EN } from './portal-strings.js';
import {
  PORTAL_FORM_COOKIE,
  PORTAL_NEXT_COOKIE,
  PORTAL_NEXT_SECONDS,
  PORTAL_PATH,
  PORTAL_SESSION_COOKIE,
  portalCookie,
  queryText,
  safeNext,
  setPortalCookie,
} from './portal-web.js';

const WINDOW_SECONDS = 15 * 60;
/** Longer organisations and addresses are no one's: cut so that rate-limit keys stay short. */
const MAX_FIELD = 254;

/**
 * Sign-in without a password (docs/dashboard.md, "Learner portal"): ask for a link or code, open the link, enter
 * the code, sign out. Every request counts per client address; messages and codes count per address typed (and
 * messages per learner too), so ten requests for one address send at most three messages, and the pages say the
 * same whether the address is known or not.
 */
export function portalSignInRoutes(router: RouteTable, d: PortalHttpDeps): void {
  const limits = { ...DEFAULT_PORTAL_LIMITS, ...d.limits };
  const idleMs = d.bodyIdleTimeoutMs;

  /** Counts one hit of `key` in its window; true while within `limit`. */
  const within = async (key: string, limit: number) => {
    const [w] = await d.rateLimits.hit(key, [{ seconds: WINDOW_SECONDS, limit }], d.now().getTime());
    return { ok: w!.hits <= limit, resetAt: w!.resetAt };
  };

  /** A sign-in form post: its CSRF token is paired with the form cookie; the client address counts first. */
  const signInForm = async (ctx: Context): Promise<URLSearchParams | null> => {
    const form = await formBody(ctx, idleMs);
    if (!sameToken(form.get('_csrf'), portalCookie(ctx, PORTAL_FORM_COOKIE))) throw csrfRefused();
    const client = await within(`portal:ip:${ctx.ip}`, limits.perClient);
    if (client.ok) return form;
    ctx.set('Retry-After', String(Math.max(1, client.resetAt - Math.floor(d.now().getTime() / 1000))));
    send(ctx, refusedPage(EN.tooMany, (form.get('tenant') ?? '').trim().toLowerCase()), 429);
    return null;
  };

  const opened = (ctx: Context, s: { token: string; expiresAt: string }) => {
    setPortalCookie(
      ctx,
      PORTAL_SESSION_COOKIE,
      s.token,
      Math.floor((Date.parse(s.expiresAt) - d.now().getTime()) / 1000),
    );
    setPortalCookie(ctx, PORTAL_FORM_COOKIE, '', 0);
    // The page asked for before signing in, checked again (a cookie is the client's to change).
    const kept = portalCookie(ctx, PORTAL_NEXT_COOKIE);
    const next = kept === null ? null : safeNext(decoded(kept));
    if (kept !== null) setPortalCookie(ctx, PORTAL_NEXT_COOKIE, '', 0);
    ctx.status = 303;
    ctx.redirect(next ?? PORTAL_PATH);
  };

  const refused = (ctx: Context, e: unknown, tenant?: string) => {
    if (!isDomainError(e) || e.kind !== 'unauthorized') throw e;
    send(ctx, refusedPage(EN.refused, tenant), 401);
  };

  router.add('get', '/learn/sign-in', async (ctx) => {
    const tenant = queryText(ctx, 'tenant').trim().toLowerCase();
    const next = safeNext(queryText(ctx, 'next'));
    if (next) setPortalCookie(ctx, PORTAL_NEXT_COOKIE, encodeURIComponent(next), PORTAL_NEXT_SECONDS);
    send(ctx, signInPage(ctx, { tenant, fixedTenant: tenant !== '' }));
  });

  router.add('post', '/learn/sign-in', async (ctx) => {
    const form = await signInForm(ctx);
    if (!form) return;
    const tenant = (form.get('tenant') ?? '').trim().toLowerCase().slice(0, MAX_FIELD);
    const typed = (form.get('address') ?? '').trim().slice(0, MAX_FIELD);
    const read = readAddress(typed);
    const key = `${tenant}/${read?.address ?? typed.toLowerCase()}`;
    // Counted before anything is looked up, so a known and an unknown address are answered alike.
    if ((await within(`portal:send:${key}`, limits.messages)).ok) {
      const target = await d.portal.signIns.find(tenant, typed);
      if (target && (await within(`portal:learner:${target.learner.id}`, limits.messages)).ok) {
        const sent = await d.portal.signIns.issue(target);
        await d.sendSignIn(target.learner, sent);
      }
    }
    if (read?.channel === 'whatsapp')
      send(ctx, codePage(ctx, { tenant, address: typed, notice: { text: EN.sentCode } }));
    else send(ctx, signInPage(ctx, { tenant, fixedTenant: tenant !== '', notice: { text: EN.sentEmail } }));
  });

  router.add('post', '/learn/code', async (ctx) => {
    const form = await signInForm(ctx);
    if (!form) return;
    const tenant = (form.get('tenant') ?? '').trim().toLowerCase().slice(0, MAX_FIELD);
    const typed = (form.get('address') ?? '').trim().slice(0, MAX_FIELD);
    const key = `${tenant}/${readAddress(typed)?.address ?? typed.toLowerCase()}`;
    if (!(await within(`portal:code:${key}`, limits.codeAttempts)).ok)
      return send(ctx, refusedPage(EN.tooMany, tenant), 429);
    try {
      opened(ctx, await d.portal.signIns.openWithCode(tenant, typed, form.get('code') ?? ''));
    } catch (e) {
      refused(ctx, e, tenant);
    }
  });

  router.add('get', '/learn/link', async (ctx) => {
    send(ctx, continuePage(ctx, queryText(ctx, 'token')));
  });

  router.add('post', '/learn/link', async (ctx) => {
    const form = await signInForm(ctx);
    if (!form) return;
    try {
      opened(ctx, await d.portal.signIns.openWithLink(form.get('token') ?? ''));
    } catch (e) {
      refused(ctx, e);
    }
  });

  router.add('post', '/learn/sign-out', async (ctx) => {
    const token = portalCookie(ctx, PORTAL_SESSION_COOKIE);
    const s = token ? await d.portal.sessions.resolve(token) : null;
    const form = await formBody(ctx, idleMs);
    if (s && !sameToken(form.get('_csrf'), s.csrfToken)) throw csrfRefused();
    if (token) await d.portal.sessions.signOut(token);
    setPortalCookie(ctx, PORTAL_SESSION_COOKIE, '', 0);
    send(ctx, signInPage(ctx, { tenant: s?.tenant.slug ?? '', fixedTenant: !!s, notice: { text: EN.signedOut } }));
  });
}

/** A cookie's value as it was encoded, or '' when it is not valid percent-encoding. */
function decoded(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return '';
  }
}

/** Writes a page; without `status`, Koa's (200, or what the handler set before) stands. */
function send(ctx: Context, page: { value: string }, status?: number): void {
  if (status !== undefined) ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page.value;
}

export { send as sendPortalPage };

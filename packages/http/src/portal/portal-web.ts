import type { Context } from 'koa';
import { cookie, setCookie } from '../dashboard/web.js';

/** The portal session's cookie: its own name and path, never sent to the dashboard or the API. */
export const PORTAL_SESSION_COOKIE = 'fundi_learner';
/** Sign-in forms come before a session: their CSRF token is paired with this cookie. */
export const PORTAL_FORM_COOKIE = 'fundi_learn_form';
export const PORTAL_PATH = '/learn';
/** Where a learner asked to go before signing in (a path of the portal), kept until the session opens. */
export const PORTAL_NEXT_COOKIE = 'fundi_learn_next';
/** The page asked for is remembered this long: a sign-in link works 15 minutes. */
export const PORTAL_NEXT_SECONDS = 30 * 60;

/** Pages of the portal that are no place to land after signing in. */
const NOT_NEXT = /^\/learn\/(sign-in|sign-out|link|code|sign-off|assets)(\/|\?|$)/;

/**
 * `next` when it is a page of this portal to land on after sign-in, else null: a path (never a scheme, host or
 * `//`), under `/learn`, without backslashes or control characters, not a sign-in step, at most 512 characters.
 */
export function safeNext(v: string | undefined | null): string | null {
  if (!v || v.length > 512 || !/^\/learn(\/|\?|$)/.test(v)) return null;
  if (
    v.includes('//') ||
    v.includes('\\') ||
    [...v].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f') ||
    NOT_NEXT.test(v)
  )
    return null;
  try {
    const u = new URL(v, 'http://portal.invalid');
    return u.origin === 'http://portal.invalid' && u.pathname.startsWith(PORTAL_PATH)
      ? `${u.pathname}${u.search}`
      : null;
  } catch {
    return null;
  }
}

export const setPortalCookie = (ctx: Context, name: string, value: string, maxAgeSeconds: number) =>
  setCookie(ctx, name, value, maxAgeSeconds, PORTAL_PATH);

export const portalCookie = (ctx: Context, name: string) => cookie(ctx, name);

/** A query parameter as one string ('' when absent or repeated). */
export const queryText = (ctx: Context, name: string): string => {
  const v = ctx.query[name];
  return typeof v === 'string' ? v : '';
};

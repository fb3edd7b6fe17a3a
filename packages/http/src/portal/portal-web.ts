import type { Context } from 'koa';
import { cookie, setCookie } from '../dashboard/web.js';

/** The portal session's cookie: its own name and path, never sent to the dashboard or the API. */
export const PORTAL_SESSION_COOKIE = 'fundi_learner';
/** Sign-in forms come before a session: their CSRF token is paired with this cookie. */
export const PORTAL_FORM_COOKIE = 'fundi_learn_form';
export const PORTAL_PATH = '/learn';

export const setPortalCookie = (ctx: Context, name: string, value: string, maxAgeSeconds: number) =>
  setCookie(ctx, name, value, maxAgeSeconds, PORTAL_PATH);

export const portalCookie = (ctx: Context, name: string) => cookie(ctx, name);

/** A query parameter as one string ('' when absent or repeated). */
export const queryText = (ctx: Context, name: string): string => {
  const v = ctx.query[name];
  return typeof v === 'string' ? v : '';
};

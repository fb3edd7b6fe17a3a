import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { RouteTable } from '../route-table.js';
import { safeForm, safeQuery } from './form-text.js';
import type { SessionContext } from '@fundi/application/staff';
import { DomainError, timeZoneOf, type Scope } from '@fundi/domain';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS, readWholeBody } from '../middleware/body-progress.js';

export const SESSION_COOKIE = 'fundi_session';
/** Sign-in and set-password forms come before a session: their CSRF token is paired with this cookie. */
export const FORM_COOKIE = 'fundi_form';
const MAX_FORM_BYTES = 64 * 1024;

/**
 * Headers of every dashboard answer: nothing but this origin's own stylesheet, script and images (signed file
 * URLs are same-origin), no framing, no referrer leaving the site, no caching of personal data.
 */
export function securityHeaders(ctx: Context): void {
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; object-src 'self'; frame-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'no-store');
}

/**
 * `Secure` is added when the request came over https (directly, or through a trusted proxy). `path` is the part of
 * the site the cookie belongs to: the dashboard's, or the learner portal's.
 */
export function setCookie(ctx: Context, name: string, value: string, maxAgeSeconds: number, path = '/dashboard'): void {
  const parts = [`${name}=${value}`, `Path=${path}`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`];
  if (ctx.secure) parts.push('Secure');
  ctx.append('Set-Cookie', parts.join('; '));
}

export function cookie(ctx: Context, name: string): string | null {
  const header = ctx.get('cookie');
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim() || null;
  }
  return null;
}

/** Reads an `application/x-www-form-urlencoded` body of at most 64 KB; one that stalls for `idleMs` is 408. */
export async function formBody(ctx: Context, idleMs = DEFAULT_BODY_IDLE_TIMEOUT_MS): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) {
    throw new DomainError('invalid', 'unsupported_media_type', 'Forms are posted URL-encoded');
  }
  const body = await readWholeBody(ctx.req, {
    maxBytes: MAX_FORM_BYTES,
    idleMs,
    tooLarge: () => new DomainError('invalid', 'body_too_large', 'The form is too large'),
  });
  return safeForm(new URLSearchParams(body.toString('utf8')));
}

export const newFormToken = () => randomBytes(24).toString('base64url');

export function sameToken(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const csrfRefused = () =>
  DomainError.forbidden('The form has expired or did not come from this site: reload the page and try again', 'csrf');

/** The signed-in user may do what an API key of their role may do; anything else is refused. */
export function requireScope(s: SessionContext, scope: Scope): void {
  if (!s.actor.scopes.includes(scope)) throw DomainError.forbidden(`Your role (${s.user.role}) may not do this`);
}

export function requireAdmin(s: SessionContext): void {
  if (s.user.role !== 'admin') throw DomainError.forbidden('Only administrators may do this');
}

export const can = (s: SessionContext, scope: Scope) => s.actor.scopes.includes(scope);

/** Optional text field: trimmed, empty is absent. */
export function field(form: URLSearchParams, name: string): string | undefined {
  const v = form.get(name)?.trim();
  return v ? v : undefined;
}

/** The time zone the signed-in user's pages show times in: the tenant's setting. */
export const zoneOf = (s: SessionContext) => timeZoneOf(s.tenant);

/**
 * Serves the pages of `router` under `prefix` (the dashboard's, the learner portal's): the security headers, the
 * query's text rules, then the page. A page answers only the methods it has; any other method on its path is a page
 * that does not exist (404). A failure becomes the error page of whoever is signed in (`session`), so a signed-in
 * person keeps the navigation and is led back in, not to the sign-in.
 */
export function servePages<S>(
  prefix: string,
  router: RouteTable,
  session: (ctx: Context) => Promise<S>,
  errorPage: (ctx: Context, e: unknown, s: S | null) => void,
) {
  const under = `${prefix}/`;
  // Another path passes straight on, with no promise of this step's own (it sits before the API's on every request).
  const pass = (ctx: Context, next: Next): Promise<unknown> => {
    const path = ctx.path;
    return path !== prefix && !path.startsWith(under) ? next() : serve(ctx);
  };
  const serve = async (ctx: Context): Promise<void> => {
    securityHeaders(ctx);
    try {
      safeQuery(ctx.query);
      const found = router.find(ctx.method, ctx.path);
      if (!found) throw DomainError.notFound('page');
      ctx.params = found.params;
      await found.handler(ctx);
    } catch (e) {
      const s = await session(ctx).catch(() => null);
      errorPage(ctx, e, s);
    }
  };
  return pass;
}

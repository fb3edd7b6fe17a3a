import type { Context } from 'koa';
import { html } from '../html.js';
import { page } from '../layout.js';
import { FORM_COOKIE, newFormToken, setCookie } from '../web.js';

/** The sign-in form; its CSRF token is paired with a short-lived cookie (there is no session yet). */
export function signInPage(
  ctx: Context,
  v: { tenant?: string; email?: string; next?: string; error?: string; notice?: string },
) {
  const token = newFormToken();
  setCookie(ctx, FORM_COOKIE, token, 3600);
  return page({
    title: 'Sign in',
    session: null,
    notice: v.error ? { text: v.error, error: true } : v.notice ? { text: v.notice } : null,
    body: html`<form class="card" method="post" action="/dashboard/sign-in">
<input type="hidden" name="_csrf" value="${token}">${v.next ? html`<input type="hidden" name="next" value="${v.next}">` : ''}
<label for="tenant">Organisation</label><input id="tenant" name="tenant" required autocomplete="organization" value="${v.tenant ?? ''}">
<label for="email">Email</label><input id="email" name="email" type="email" required autocomplete="username" value="${v.email ?? ''}">
<label for="password">Password</label><input id="password" name="password" type="password" required autocomplete="current-password">
<button type="submit">Sign in</button></form>
<p><a href="/dashboard/forgot-password${v.tenant ? `?tenant=${encodeURIComponent(v.tenant)}` : ''}">Forgot your password?</a></p>`,
  });
}

/** Asks for a password reset link by email; the answer is the same whether or not the account exists. */
export function forgotPasswordPage(ctx: Context, v: { tenant?: string; notice?: string; error?: string }) {
  const token = newFormToken();
  setCookie(ctx, FORM_COOKIE, token, 3600);
  return page({
    title: 'Forgot your password?',
    session: null,
    notice: v.error ? { text: v.error, error: true } : v.notice ? { text: v.notice } : null,
    body: html`<form class="card" method="post" action="/dashboard/forgot-password">
<input type="hidden" name="_csrf" value="${token}">
<p>We will email you a link to choose a new password. It works for one hour.</p>
<label for="tenant">Organisation</label><input id="tenant" name="tenant" required autocomplete="organization" value="${v.tenant ?? ''}">
<label for="email">Email</label><input id="email" name="email" type="email" required autocomplete="username">
<button type="submit">Email me a link</button></form>
<p><a href="/dashboard/sign-in">Back to sign in</a></p>`,
  });
}

export function setPasswordPage(ctx: Context, v: { token: string; email: string; error?: string }) {
  const formToken = newFormToken();
  setCookie(ctx, FORM_COOKIE, formToken, 3600);
  return page({
    title: 'Choose a password',
    session: null,
    notice: v.error ? { text: v.error, error: true } : null,
    body: html`<form class="card" method="post" action="/dashboard/set-password">
<input type="hidden" name="_csrf" value="${formToken}"><input type="hidden" name="token" value="${v.token}">
<p>For ${v.email}. At least 12 characters.</p>
<input type="text" name="username" value="${v.email}" autocomplete="username" hidden>
<label for="password">New password</label><input id="password" name="password" type="password" minlength="12" required autocomplete="new-password">
<button type="submit">Set password</button></form>`,
  });
}

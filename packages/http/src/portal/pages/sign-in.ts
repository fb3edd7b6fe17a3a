import type { Context } from 'koa';
import { html } from '../../dashboard/html.js';
import { newFormToken } from '../../dashboard/web.js';
import { portalPage } from '../portal-layout.js';
import { EN } from '../portal-strings.js';
import { PORTAL_FORM_COOKIE, setPortalCookie } from '../portal-web.js';

type Notice = { text: string; error?: boolean } | null;

/** A CSRF token for a form shown before there is a session, paired with a short-lived cookie. */
function formToken(ctx: Context): string {
  const token = newFormToken();
  setPortalCookie(ctx, PORTAL_FORM_COOKIE, token, 3600);
  return token;
}

/** The organisation: a hidden field when the link named it, else a field to fill in. */
const tenantField = (tenant: string, fixed: boolean) =>
  fixed
    ? html`<input type="hidden" name="tenant" value="${tenant}">`
    : html`<label for="tenant">${EN.organisation}</label><input id="tenant" name="tenant" required autocomplete="organization" value="${tenant}">`;

/** Asks for an email or mobile number; the answer never says whether it is known. */
export function signInPage(ctx: Context, v: { tenant: string; fixedTenant: boolean; notice?: Notice }) {
  const token = formToken(ctx);
  return portalPage({
    title: EN.signIn,
    session: null,
    notice: v.notice,
    body: html`<form class="card" method="post" action="/learn/sign-in">
<input type="hidden" name="_csrf" value="${token}">${tenantField(v.tenant, v.fixedTenant)}
<label for="address">${EN.address}</label><input id="address" name="address" required autocomplete="username" aria-describedby="address-hint">
<p id="address-hint" class="muted">${EN.addressHint}</p>
<button type="submit">${EN.sendLink}</button></form>`,
  });
}

/** The code form, shown after any request for a mobile number (known or not). */
export function codePage(ctx: Context, v: { tenant: string; address: string; notice?: Notice }) {
  const token = formToken(ctx);
  return portalPage({
    title: EN.signIn,
    session: null,
    notice: v.notice,
    body: html`<form class="card" method="post" action="/learn/code">
<input type="hidden" name="_csrf" value="${token}"><input type="hidden" name="tenant" value="${v.tenant}">
<input type="hidden" name="address" value="${v.address}">
<label for="code">${EN.code}</label><input id="code" name="code" required inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code">
<button type="submit">${EN.useCode}</button></form>
<p><a href="/learn/sign-in?tenant=${encodeURIComponent(v.tenant)}">${EN.sendLink}</a></p>`,
  });
}

/**
 * The emailed link opens this page, which signs in only when its button is pressed: mail scanners that open links
 * do not use up the learner's link.
 */
export function continuePage(ctx: Context, linkToken: string) {
  const token = formToken(ctx);
  return portalPage({
    title: EN.continueTitle,
    session: null,
    body: html`<form class="card" method="post" action="/learn/link">
<input type="hidden" name="_csrf" value="${token}"><input type="hidden" name="token" value="${linkToken}">
<p>${EN.continueText}</p><button type="submit">${EN.continueButton}</button></form>`,
  });
}

/** A page shown when signing in did not work, with the way back to the sign-in form. */
export function refusedPage(text: string, tenant?: string) {
  return portalPage({
    title: EN.signIn,
    session: null,
    notice: { text, error: true },
    body: html`<p><a href="/learn/sign-in${tenant ? `?tenant=${encodeURIComponent(tenant)}` : ''}">${EN.signIn}</a></p>`,
  });
}

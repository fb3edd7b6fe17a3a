import type { PortalSessionContext } from '@fundi/application/portal';
import { html, when, type Html } from '../dashboard/html.js';
import { EN } from './portal-strings.js';

export interface PortalPageInput {
  title: string;
  session: PortalSessionContext | null;
  body: Html;
  notice?: { text: string; error?: boolean } | null;
  /** A script of the portal's own (`portal-assets.ts`) the page loads, deferred. */
  script?: string;
}

/** The portal's page frame: the learner's name and a sign-out form when signed in, then the page. */
export function portalPage(p: PortalPageInput): Html {
  const s = p.session;
  return html`<!doctype html>
<html lang="${EN.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${p.title} - ${s ? s.tenant.name : EN.brand}</title>
<link rel="stylesheet" href="/learn/assets/portal.css">
${when(p.script, () => html`<script src="${p.script!}" defer></script>`)}
</head>
<body>
<header>
<a href="/learn">${s ? s.tenant.name : EN.brand}</a>
${when(
  s,
  () => html`<form method="post" action="/learn/sign-out"><input type="hidden" name="_csrf" value="${s!.csrfToken}">
<button type="submit">${EN.signOut}</button></form>`,
)}
</header>
<main>
<h1>${p.title}</h1>
${when(p.notice, () => html`<p class="notice${p.notice!.error ? ' error' : ''}" role="${p.notice!.error ? 'alert' : 'status'}">${p.notice!.text}</p>`)}
${p.body}
</main>
</body>
</html>`;
}

/** A hidden CSRF field for a form of this session. */
export const portalCsrf = (s: PortalSessionContext) => html`<input type="hidden" name="_csrf" value="${s.csrfToken}">`;

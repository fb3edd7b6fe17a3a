import type { SessionContext } from '@fundi/application/staff';
import { html, when, type Html } from './html.js';
import type { NavEntry } from './dashboard-deps.js';
import { can } from './web.js';

export interface PageInput {
  title: string;
  /** The nav entry to mark as current. */
  current?: string;
  session: SessionContext | null;
  body: Html;
  notice?: { text: string; error?: boolean } | null;
  /** Extra markup for the head (a refresh while background work runs). */
  head?: Html;
}

/**
 * The navigation of each signed-in session the dashboard resolved, composed from the capabilities' entries
 * (`createDashboard`); a session the dashboard did not resolve has none.
 */
const NAVIGATION = new WeakMap<SessionContext, readonly NavEntry[]>();

/** Gives `s` the navigation `entries` (sorted by order) for the pages rendered for it. */
export function withNavigation<S extends SessionContext>(s: S, entries: readonly NavEntry[]): S {
  NAVIGATION.set(s, entries);
  return s;
}

function nav(s: SessionContext, current: string | undefined): Html {
  const items = (NAVIGATION.get(s) ?? []).filter(
    (e) => (!e.scope || can(s, e.scope)) && (!e.role || s.user.role === e.role),
  );
  // On a phone the navigation folds behind "Menu" (no script: a <details>); wide screens show it open (app.css).
  return html`<details class="menu"><summary>Menu</summary><nav aria-label="Main"><ul>${items.map(
    ({ href, label }) =>
      html`<li><a href="${href}"${current === href ? html` aria-current="page"` : ''}>${label}</a></li>`,
  )}</ul></nav></details>`;
}

/** The page frame: header with the navigation the role may use, a sign-out form, and the page's main content. */
export function page(p: PageInput): Html {
  const s = p.session;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${p.title} - Fundi</title>
<link rel="stylesheet" href="/dashboard/assets/app.css">
<script src="/dashboard/assets/app.js" defer></script>
${p.head ?? null}
</head>
<body>
<header>
<a class="brand" href="/dashboard">Fundi${s ? html` <span class="muted-light">· ${s.tenant.name}</span>` : ''}</a>
${when(s, () => nav(s!, p.current))}
${when(
  s,
  () => html`<form method="post" action="/dashboard/sign-out"><input type="hidden" name="_csrf" value="${s!.csrfToken}">
<button type="submit">Sign out ${s!.user.email}</button></form>`,
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
export const csrf = (s: SessionContext) => html`<input type="hidden" name="_csrf" value="${s.csrfToken}">`;

import type { SessionContext } from '@fundi/application';
import { html, when, type Html } from './html.js';
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

function nav(s: SessionContext, current: string | undefined): Html {
  const items: [string, string, boolean][] = [
    ['/dashboard', 'Overview', true],
    ['/dashboard/learners', 'Learners', can(s, 'learners:read')],
    ['/dashboard/programmes', 'Programmes', can(s, 'programmes:read')],
    ['/dashboard/enrolments', 'Enrolments', can(s, 'enrolments:read')],
    ['/dashboard/assessments', 'Record results', can(s, 'assessments:write') && can(s, 'enrolments:read')],
    ['/dashboard/evidence', 'Evidence', can(s, 'evidence:read')],
    ['/dashboard/moderation', 'Moderation', can(s, 'assessments:read')],
    ['/dashboard/webhooks', 'Webhooks', can(s, 'webhooks:read')],
    ['/dashboard/imports', 'Imports', can(s, 'imports:read')],
    ['/dashboard/exports', 'Exports', can(s, 'exports:read')],
    ['/dashboard/notifications', 'Notifications', can(s, 'notifications:read')],
    ['/dashboard/hr-sync', 'HR sync', s.user.role === 'admin'],
    ['/dashboard/api-keys', 'API keys', s.user.role === 'admin'],
    ['/dashboard/users', 'Staff users', s.user.role === 'admin'],
    ['/dashboard/usage', 'Usage', can(s, 'usage:read')],
    ['/dashboard/audit', 'Audit', can(s, 'audit:read')],
    ['/dashboard/settings', 'Settings', true],
  ];
  // On a phone the navigation folds behind "Menu" (no script: a <details>); wide screens show it open (app.css).
  return html`<details class="menu"><summary>Menu</summary><nav aria-label="Main"><ul>${items
    .filter(([, , shown]) => shown)
    .map(
      ([href, label]) =>
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

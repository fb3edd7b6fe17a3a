import type { StatementView } from '@fundi/application/statements';
import { html, when } from '../../dashboard/html.js';
import { portalPage } from '../portal-layout.js';
import type { PortalHttpDeps, PortalRoutes } from '../portal-deps.js';
import { EN } from '../portal-strings.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;

function statementItem(st: StatementView) {
  const revoked = st.status === 'revoked';
  return html`<li><h3>${st.programmeName} (${st.programmeCode})</h3>
<p>${EN.statementOutcome[st.outcome] ?? st.outcome} · ${EN.issuedOn} ${st.issuedAt.slice(0, 10)}</p>
${
  revoked
    ? html`<p class="todo">${EN.statementRevoked}${when(st.revokedAt, () => html` (${st.revokedAt!.slice(0, 10)})`)}</p>`
    : html`<p><a href="/learn/statements/${st.id}/download">${EN.downloadStatement}</a> · <span class="muted">${EN.verifyAt} <a href="${st.verifyUrl}">${st.verificationCode}</a></span></p>`
}</li>`;
}

/**
 * The learner's own Statements of Results: listed with their status (a revoked one says so and offers no download),
 * each downloaded through the API's signed URL, issued and audited as the API's (origin `portal`).
 */
export function statementPages(r: PortalRoutes, d: PortalHttpDeps): void {
  r.get('/learn/statements', async (ctx, s) => {
    const found = await d.statements.listStatements.execute(s.actor, s.learner.id, ALL, ctx.origin);
    return portalPage({
      title: EN.statements,
      session: s,
      body: html`${
        found.items.length
          ? html`<ul class="modules">${found.items.map(statementItem)}</ul>`
          : html`<p>${EN.noStatements}</p>`
      }
<p><a href="/learn">${EN.back}</a></p>`,
    });
  });

  // Another learner's statement is not found: `downloadUrl` looks it up under the session's learner.
  r.get('/learn/statements/:statementId/download', async (ctx, s) => {
    const grant = await d.statements.statementDownloadUrl.execute(
      s.actor,
      s.learner.id,
      ctx.params.statementId!,
      ctx.origin,
    );
    return { redirect: grant.url };
  });
}

import type { SessionContext } from '@fundi/application/staff';
import { ROLES, isDomainError } from '@fundi/domain';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { dateTime, html, type Html } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { field, requireAdmin, zoneOf } from '../dashboard/web.js';

/**
 * API keys of the tenant: administrators only (keys may carry any role, so managing them is an administrator's
 * power). A new key's secret is shown once, on the answer to the form that created it.
 */
export function apiKeyPages(r: PageRoutes, d: DashboardDeps): void {
  const render = async (s: SessionContext, extra: { created?: { name: string; key: string }; notice?: string }) => {
    const keys = await d.tenants.listApiKeys.execute(s.tenant.slug);
    const created: Html | null = extra.created
      ? html`<div class="card" role="status"><h2>Key "${extra.created.name}" created</h2>
<p>Copy it now: it is shown only this once and cannot be recovered.</p>
<label for="new-key">API key</label>
<input id="new-key" class="secret" readonly value="${extra.created.key}">
<button type="button" data-copy="new-key">Copy</button></div>`
      : null;
    return page({
      title: 'API keys',
      current: '/dashboard/api-keys',
      session: s,
      notice: extra.notice ? { text: extra.notice, error: true } : null,
      body: html`${created}
<form class="card" method="post" action="/dashboard/api-keys">${csrf(s)}
<h2>Create a key</h2>
<label for="key-name">Name</label><input id="key-name" name="name" required maxlength="100">
<label for="key-role">Role</label><select id="key-role" name="role">${ROLES.map((x) => html`<option value="${x}"${x === 'integration' ? ' selected' : ''}>${x}</option>`)}</select>
<label for="key-expires">Expires on (optional)</label><input id="key-expires" name="expiresAt" type="date">
<button type="submit">Create key</button></form>
<h2>Keys</h2>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Role</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="sr">Actions</span></th></tr></thead><tbody>
${keys.map(
  (
    k,
  ) => html`<tr><td>${k.name}</td><td class="secret">${k.prefix}</td><td>${k.role}</td><td>${dateTime(k.createdAt, zoneOf(s))}</td><td>${k.lastUsedAt ? dateTime(k.lastUsedAt, zoneOf(s)) : 'never'}</td>
<td>${k.revokedAt ? `revoked ${dateTime(k.revokedAt, zoneOf(s))}` : k.expiresAt ? `expires ${k.expiresAt}` : 'active'}</td>
<td>${k.revokedAt ? '' : html`<form method="post" action="/dashboard/api-keys/${k.id}/revoke" data-confirm="Revoke the key ${k.name}? Programs using it stop working at once.">${csrf(s)}<button class="danger" type="submit" aria-label="Revoke ${k.name}">Revoke</button></form>`}</td></tr>`,
)}
</tbody></table></div>`,
    });
  };

  r.get('/dashboard/api-keys', async (_ctx, s) => {
    requireAdmin(s);
    return render(s, {});
  });

  r.post('/dashboard/api-keys', async (_ctx, s, form) => {
    requireAdmin(s);
    try {
      const input = { name: field(form, 'name') ?? '', role: field(form, 'role'), expiresAt: field(form, 'expiresAt') };
      const created = await d.tenants.createApiKey.execute(s.tenant.slug, input, s.actor);
      return render(s, { created: { name: created.name, key: created.key } });
    } catch (e) {
      if (isDomainError(e) && e.kind === 'invalid') return render(s, { notice: describe(e) });
      throw e;
    }
  });

  r.post('/dashboard/api-keys/:id/revoke', async (ctx, s) => {
    requireAdmin(s);
    await d.tenants.revokeApiKey.execute(s.tenant.slug, ctx.params.id!, s.actor);
    return { redirect: '/dashboard/api-keys' };
  });
}

/** A refusal as one sentence: invalid input names its fields, anything else says what happened. */
export function describe(e: { kind: string; message: string; details: { field: string; message: string }[] }): string {
  return e.kind === 'invalid' && e.details.length
    ? e.details.map((x) => `${x.field} ${x.message}`).join('; ')
    : e.message;
}

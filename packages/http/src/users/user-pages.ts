import type { SessionContext } from '@fundi/application/staff';
import { ROLES, isDomainError } from '@fundi/domain';
import type { Context } from 'koa';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { dateTime, html, when } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { field, requireAdmin, zoneOf } from '../dashboard/web.js';
import { describe } from '../tenants/api-key-pages.js';

/**
 * Staff users (administrators only): add a user, invited by email (the `user_invited` notification carries the
 * link) or with the one-time set-password link shown once to hand over; disable a user (their sessions end at once)
 * or enable them again.
 */
export function userPages(r: PageRoutes, d: DashboardDeps): void {
  const render = async (
    _ctx: Context,
    s: SessionContext,
    extra: { link?: string; email?: string; notice?: string; invited?: string },
  ) => {
    const users = await d.staff.listStaffUsers.execute(s.actor);
    return page({
      title: 'Staff users',
      current: '/dashboard/users',
      session: s,
      notice: extra.notice
        ? { text: extra.notice, error: true }
        : extra.invited
          ? {
              text: `${extra.invited} added: an invitation email with a set-password link (valid 72 hours) is on its way.`,
            }
          : null,
      body: html`${when(
        extra.link,
        () => html`<div class="card" role="status"><h2>${extra.email} added</h2>
<p>Give them this link to choose a password. It works once, for 72 hours, and is shown only now.</p>
<label for="new-link">Set-password link</label><input id="new-link" class="secret" readonly value="${extra.link}">
<button type="button" data-copy="new-link">Copy</button></div>`,
      )}
<form class="card" method="post" action="/dashboard/users">${csrf(s)}<h2>Add a staff user</h2>
<label for="user-email">Email</label><input id="user-email" name="email" type="email" required>
<label for="user-name">Name</label><input id="user-name" name="name" required maxlength="200">
<label for="user-role">Role</label><select id="user-role" name="role">${ROLES.filter((x) => x !== 'integration').map((x) => html`<option value="${x}"${x === 'viewer' ? ' selected' : ''}>${x}</option>`)}</select>
<div class="check"><input type="checkbox" id="user-invite" name="invite" value="1" checked> <label for="user-invite">Send them an invitation by email (otherwise the set-password link is shown here to hand over)</label></div>
<button type="submit">Add user</button></form>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Role</th><th scope="col">State</th><th scope="col">Added</th><th scope="col"><span class="sr">Actions</span></th></tr></thead><tbody>
${users.map(
  (
    u,
  ) => html`<tr><td>${u.email}</td><td>${u.name}</td><td>${u.role}</td><td>${u.status}${u.hasPassword ? '' : ' (no password yet)'}</td><td>${dateTime(u.createdAt, zoneOf(s))}</td>
<td>${when(
    u.id !== s.user.id,
    () =>
      html`<form method="post" action="/dashboard/users/${u.id}/${u.status === 'active' ? 'disable' : 'enable'}">${csrf(s)}<button class="${u.status === 'active' ? 'danger' : 'secondary'}" type="submit" aria-label="${u.status === 'active' ? 'Disable' : 'Enable'} ${u.email}">${u.status === 'active' ? 'Disable' : 'Enable'}</button></form>`,
  )}</td></tr>`,
)}
</tbody></table></div>`,
    });
  };

  r.get('/dashboard/users', async (ctx, s) => {
    requireAdmin(s);
    return render(ctx, s, {});
  });
  r.post('/dashboard/users', async (ctx, s, form) => {
    requireAdmin(s);
    try {
      const input = { email: field(form, 'email') ?? '', name: field(form, 'name') ?? '', role: field(form, 'role') };
      if (input.role === 'integration') return render(ctx, s, { notice: 'role: integration is for API keys' });
      if (form.get('invite') === '1') {
        // The directory's invitation: the `user_invited` email carries the link (docs/api.md, "Users").
        const u = await d.staff.createUser.execute(s.actor, input);
        return render(ctx, s, { invited: u.email });
      }
      const made = await d.staff.createStaffUser.execute(s.tenant.slug, input, s.actor);
      const link = `${ctx.protocol}://${ctx.host}/dashboard/set-password?token=${encodeURIComponent(made.setPasswordToken!)}`;
      return render(ctx, s, { link, email: made.user.email });
    } catch (e) {
      if (isDomainError(e) && (e.kind === 'invalid' || e.kind === 'conflict'))
        return render(ctx, s, { notice: describe(e) });
      throw e;
    }
  });
  for (const [action, status] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    r.post(`/dashboard/users/:id/${action}`, async (ctx, s) => {
      requireAdmin(s);
      await d.staff.setStaffStatus.execute(s.actor, ctx.params.id!, status);
      return { redirect: '/dashboard/users' };
    });
  }
}

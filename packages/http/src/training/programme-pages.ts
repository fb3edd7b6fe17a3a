import type { SessionContext } from '@fundi/application/staff';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { html, when, type Html } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { can, requireScope } from '../dashboard/web.js';
import { refusal } from '../dashboard/forms/refusal.js';
import { programmeForm, programmeInput, typeLabel, type ProgrammeValues } from './programme-form.js';

const ALL = { kind: 'offset', offset: 0, limit: 200 } as const;
const rowsOf = (q: unknown) => Math.max(0, Number.parseInt(String(q ?? ''), 10) || 0);

/**
 * Programmes: the catalogue, a form to create one with its modules, and each programme's page to edit it or
 * retire it, through the API's use cases (docs/api.md, "Programmes").
 */
export function programmePages(r: PageRoutes, d: DashboardDeps): void {
  const list = async (s: SessionContext, extra: { form?: Html; notice?: string }) => {
    const found = await d.training.listProgrammes.execute(s.actor, {}, ALL);
    return page({
      title: 'Programmes',
      current: '/dashboard/programmes',
      session: s,
      notice: extra.notice ? { text: extra.notice, error: true } : null,
      body: html`${when(can(s, 'programmes:write'), () => html`<p><a class="button" href="/dashboard/programmes/new">Add a programme</a></p>`)}
${extra.form ?? null}
<p>${found.total} programme${found.total === 1 ? '' : 's'}.</p>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Code</th><th scope="col">Name</th><th scope="col">Type</th><th scope="col">NQF</th><th scope="col">Modules</th><th scope="col">State</th></tr></thead><tbody>
${found.items.map((p) => html`<tr><td><a href="/dashboard/programmes/${p.id}">${p.code}</a></td><td>${p.name}</td><td>${typeLabel(p.type)}</td><td>${p.nqfLevel ?? '-'}</td><td>${p.modules.length}</td><td>${p.status}</td></tr>`)}
</tbody></table></div>`,
    });
  };

  const one = async (
    s: SessionContext,
    id: string,
    extra: { values?: ProgrammeValues; notice?: string; rows?: number },
  ) => {
    const p = await d.training.getProgramme.execute(s.actor, id);
    const writable = can(s, 'programmes:write') && p.status === 'active';
    return page({
      title: `${p.code} ${p.name}`,
      current: '/dashboard/programmes',
      session: s,
      notice: extra.notice ? { text: extra.notice, error: true } : null,
      body: html`<p>${typeLabel(p.type)} · NQF level ${p.nqfLevel ?? '-'} · SAQA qualification ${p.qualificationId ?? '-'} · <strong>${p.status}</strong></p>
${
  writable
    ? html`<h2>Edit</h2>${programmeForm(s, `/dashboard/programmes/${p.id}`, extra.values ?? p, { editing: true, rows: extra.rows })}
<form class="card" method="post" action="/dashboard/programmes/${p.id}/retire" data-confirm="Retire ${p.code}? It takes no new enrolments afterwards.">${csrf(s)}
<h2>Retire</h2><p>A retired programme takes no new enrolments; its learners and records stay.</p><button class="danger" type="submit">Retire programme</button></form>`
    : html`<div class="table" tabindex="0"><table><thead><tr><th scope="col">Module</th><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Credits</th></tr></thead><tbody>
${p.modules.map((m) => html`<tr><td>${m.code}</td><td>${m.name}</td><td>${m.kind}</td><td>${m.credits ?? '-'}</td></tr>`)}</tbody></table></div>`
}
<p><a href="/dashboard/enrolments?programme=${encodeURIComponent(p.code)}">Enrolments in ${p.code}</a> · <a href="/dashboard/programmes">All programmes</a></p>`,
    });
  };

  r.get('/dashboard/programmes', async (_ctx, s) => {
    requireScope(s, 'programmes:read');
    return list(s, {});
  });
  r.get('/dashboard/programmes/new', async (ctx, s) => {
    requireScope(s, 'programmes:write');
    return list(s, {
      form: html`<h2>Add a programme</h2>${programmeForm(s, '/dashboard/programmes', { modules: [] }, { editing: false, rows: rowsOf(ctx.query.rows) })}`,
    });
  });
  r.post('/dashboard/programmes', async (_ctx, s, form) => {
    requireScope(s, 'programmes:write');
    const input = programmeInput(form, true);
    try {
      const made = await d.training.createProgramme.execute(s.actor, input);
      return { redirect: `/dashboard/programmes/${made.id}` };
    } catch (e) {
      return list(s, {
        notice: refusal(e),
        form: html`<h2>Add a programme</h2>${programmeForm(s, '/dashboard/programmes', input, { editing: false })}`,
      });
    }
  });
  r.get('/dashboard/programmes/:id', async (ctx, s) => {
    requireScope(s, 'programmes:read');
    return one(s, ctx.params.id!, { rows: rowsOf(ctx.query.rows) });
  });
  r.post('/dashboard/programmes/:id', async (ctx, s, form) => {
    requireScope(s, 'programmes:write');
    const input = programmeInput(form, false);
    try {
      await d.training.updateProgramme.execute(s.actor, ctx.params.id!, input);
    } catch (e) {
      const notice = refusal(e);
      const stored = await d.training.getProgramme.execute(s.actor, ctx.params.id!);
      return one(s, ctx.params.id!, {
        values: { ...input, code: stored.code },
        notice,
      });
    }
    return { redirect: `/dashboard/programmes/${ctx.params.id}` };
  });
  r.post('/dashboard/programmes/:id/retire', async (ctx, s) => {
    requireScope(s, 'programmes:write');
    await d.training.retireProgramme.execute(s.actor, ctx.params.id!);
    return { redirect: `/dashboard/programmes/${ctx.params.id}` };
  });
}

import type { SessionContext } from '@fundi/application/staff';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { html } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { field, requireScope } from '../dashboard/web.js';
import { learnerForm, learnerInput, valuesOf, type LearnerValues } from './learner-form.js';
import { refusal } from '../dashboard/forms/refusal.js';

/**
 * Adding and correcting a learner by form (the API's register and update use cases), and erasure behind a typed
 * confirmation (the API's POPIA erasure).
 */
export function learnerEditPages(r: PageRoutes, d: DashboardDeps): void {
  const addPage = (s: SessionContext, v: LearnerValues, notice?: string) =>
    page({
      title: 'Add a learner',
      current: '/dashboard/learners',
      session: s,
      notice: notice ? { text: notice, error: true } : null,
      body: learnerForm(s, '/dashboard/learners/new', v, 'Add learner'),
    });

  const editPage = async (s: SessionContext, id: string, v?: LearnerValues, notice?: string) => {
    const l = await d.learners.getLearner.execute(s.actor, id);
    const name = `${l.firstName} ${l.lastName}`;
    return page({
      title: `Edit ${name}`,
      current: '/dashboard/learners',
      session: s,
      notice: notice ? { text: notice, error: true } : null,
      body: html`${learnerForm(s, `/dashboard/learners/${l.id}/edit`, v ?? valuesOf(l), 'Save changes')}
${
  s.actor.scopes.includes('learners:delete')
    ? html`<form class="card danger-zone" method="post" action="/dashboard/learners/${l.id}/erase">${csrf(s)}<h2>Erase this learner</h2>
<p>Erasure (POPIA) removes their personal data for good; anonymised enrolment and assessment facts stay. It cannot be undone.</p>
<label for="erase-confirm">Type the learner's full name, ${name}, to confirm</label><input id="erase-confirm" name="confirm" autocomplete="off" required>
<button class="danger" type="submit">Erase learner</button></form>`
    : null
}
<p><a href="/dashboard/learners/${l.id}">Back to ${name}</a></p>`,
    });
  };

  r.get('/dashboard/learners/new', async (_ctx, s) => {
    requireScope(s, 'learners:write');
    return addPage(s, {});
  });
  r.post('/dashboard/learners/new', async (_ctx, s, form) => {
    requireScope(s, 'learners:write');
    const { input, values } = learnerInput(form, false);
    try {
      const l = await d.learners.registerLearner.execute(s.actor, input);
      return { redirect: `/dashboard/learners/${l.id}` };
    } catch (e) {
      return addPage(s, values, refusal(e));
    }
  });
  r.get('/dashboard/learners/:id/edit', async (ctx, s) => {
    requireScope(s, 'learners:write');
    return editPage(s, ctx.params.id!);
  });
  r.post('/dashboard/learners/:id/edit', async (ctx, s, form) => {
    requireScope(s, 'learners:write');
    const { input, values } = learnerInput(form, true);
    try {
      await d.learners.updateLearner.execute(s.actor, ctx.params.id!, input);
    } catch (e) {
      return editPage(s, ctx.params.id!, values, refusal(e));
    }
    return { redirect: `/dashboard/learners/${ctx.params.id}` };
  });
  r.post('/dashboard/learners/:id/erase', async (ctx, s, form) => {
    requireScope(s, 'learners:delete');
    const l = await d.learners.getLearner.execute(s.actor, ctx.params.id!);
    const typed = (field(form, 'confirm') ?? '').replace(/\s+/g, ' ').toLowerCase();
    if (typed !== `${l.firstName} ${l.lastName}`.replace(/\s+/g, ' ').toLowerCase())
      return editPage(s, l.id, undefined, 'The confirmation must be the learner\u2019s full name: nothing was erased.');
    await d.learners.eraseLearner.execute(s.actor, l.id);
    return { redirect: '/dashboard/learners' };
  });
}

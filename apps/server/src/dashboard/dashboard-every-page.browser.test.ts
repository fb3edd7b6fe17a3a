import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { anExport } from '@fundi/domain/testing';
import { reposOf } from '../capabilities/index.js';
import { staffUser } from '../testing/dashboard-client.js';
import type { TestServer } from '../testing/test-server.js';
import { assessmentBody } from '../testing/training-fixtures.js';
import { checkPage } from './browser-page-checks.js';
import { describeBrowserSuite } from './dashboard-browser-fixture.js';

/** Every page of the dashboard leaves its screenshots at both widths, whatever FUNDI_TEST_SCREENSHOTS says. */
const ALWAYS = { screenshots: 'always' } as const;

/** Opens each page in turn and checks it (axe at both widths, no sideways scroll, no learner id, no CSP break). */
async function checkEach(s: TestServer, page: Page, pages: [string, string][]): Promise<void> {
  for (const [name, path] of pages) {
    await page.goto(`${s.url}${path}`);
    await page.waitForLoadState('load');
    await checkPage(page, `every-${name}`, ALWAYS);
  }
}

// Three tests of ten pages or so each: every page with axe at two widths takes two minutes or more on a loaded
// machine, and each test has the suite's 90 s.
describeBrowserSuite('dashboard in a real browser (Chromium): every page at 1280 and 375 px', (dashboard) => {
  it('passes WCAG 2.2 A/AA (axe), breaks no policy, never scrolls sideways and names learners: learners', async () => {
    const { s, apiKey, learnerId, signedIn } = dashboard();
    const programme = await s.call('GET', '/api/v1/programmes/P-WEB', apiKey);
    const { context, page } = await signedIn('admin@example.org', 1280);
    await checkEach(s, page, [
      ['overview', '/dashboard'],
      ['learners', '/dashboard/learners?q=nkosi'],
      ['learner-new', '/dashboard/learners/new'],
      ['learner', `/dashboard/learners/${learnerId}`],
      ['learner-edit', `/dashboard/learners/${learnerId}/edit`],
      ['programmes', '/dashboard/programmes'],
      ['programme-new', '/dashboard/programmes/new'],
      ['programme', `/dashboard/programmes/${programme.body.id}`],
    ]);
    await context.close();
  });

  it('passes WCAG 2.2 A/AA (axe), breaks no policy, never scrolls sideways and names learners: records', async () => {
    const { s, apiKey, learnerId, evidenceId, signedIn } = dashboard();
    const assessed = await s.call(
      'POST',
      '/api/v1/assessments',
      apiKey,
      assessmentBody(learnerId, 'KM-01', { assessorEmail: 'someone@example.org' }),
    );
    expect(assessed.status).toBe(201);
    const sample = await s.call('POST', '/api/v1/moderation/samples', apiKey, { programmeCode: 'P-WEB', percent: 100 });
    expect(sample.status, JSON.stringify(sample.body)).toBe(201);
    const enrolments = await s.call('GET', `/api/v1/enrolments?learnerId=${learnerId}`, apiKey);
    const enrolmentId = enrolments.body.data[0].id as string;
    const { context, page } = await signedIn('admin@example.org', 1280);
    await checkEach(s, page, [
      ['enrolments', '/dashboard/enrolments'],
      ['enrolment', `/dashboard/enrolments/${enrolmentId}`],
      ['evidence', '/dashboard/evidence'],
      ['evidence-one', `/dashboard/evidence/${evidenceId}`],
      ['moderation', '/dashboard/moderation'],
      ['moderation-sample', `/dashboard/moderation/${sample.body.id}`],
      ['readiness', '/dashboard/readiness?type=qcto01'],
      ['readiness-qcto02', '/dashboard/readiness?type=qcto02'],
    ]);
    await context.close();
  });

  it('passes WCAG 2.2 A/AA (axe), breaks no policy, never scrolls sideways: integrations and settings', async () => {
    const { s, apiKey, receiver, signedIn } = dashboard();
    const hook = await s.call('POST', '/api/v1/webhook-subscriptions', apiKey, {
      url: receiver.url,
      events: ['learner.created'],
    });
    const form = new FormData();
    form.append('type', 'learners');
    form.append(
      'file',
      new Blob(['first_name,last_name,id_number\r\nLerato,Mokoena,8001015009087\r\n'], { type: 'text/csv' }),
      'learners.csv',
    );
    const imported = await fetch(`${s.url}/api/v1/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: form,
    });
    const importId = ((await imported.json()) as { id: string }).id;
    const { context, page } = await signedIn('admin@example.org', 1280);
    await checkEach(s, page, [
      ['webhooks', '/dashboard/webhooks'],
      ['webhook', `/dashboard/webhooks/${hook.body.id}`],
      ['imports', '/dashboard/imports'],
      ['import', `/dashboard/imports/${importId}`],
      ['exports', '/dashboard/exports'],
      ['notifications', '/dashboard/notifications'],
      ['template', '/dashboard/notifications/templates/welcome'],
      ['hr-sync', '/dashboard/hr-sync'],
      ['api-keys', '/dashboard/api-keys'],
      ['users', '/dashboard/users'],
      ['usage', '/dashboard/usage'],
      ['settings', '/dashboard/settings'],
      ['not-found', '/dashboard/no-such-page'],
    ]);
    await context.close();
    await staffUser(s.container, 'browser', 'assessor');
    const assessor = await signedIn('assessor@example.org');
    expect(await assessor.page.locator('main').textContent()).toContain('Your review queue');
    await checkPage(assessor.page, 'every-assessor-landing', ALWAYS);
    await assessor.context.close();
  });

  it('the filtered learners list, the bulk actions, Record results and the facilitator landing pass the same checks', async () => {
    const { s, signedIn } = dashboard();
    const { context, page } = await signedIn('admin@example.org', 1280);
    await page.goto(
      `${s.url}/dashboard/learners?programme=p-web&status=enrolled&from=2026-Q1&to=2026-12&sort=start&dir=desc`,
    );
    await page.waitForLoadState('load');
    await checkPage(page, 'every-learners-filtered', ALWAYS);
    await page.goto(`${s.url}/dashboard/assessments`);
    await page.waitForLoadState('load');
    await checkPage(page, 'every-record-results', ALWAYS);
    // The bulk actions' pages are answers to posts of a selection: reached by ticking a learner in the list.
    for (const [action, submit, name] of [
      ['Enrol in a programme', 'Enrol them', 'bulk-enrol'],
      ['Send a notification', 'Send', 'bulk-notify'],
    ] as const) {
      await page.goto(`${s.url}/dashboard/learners?q=nkosi`);
      await page.locator('td.pick input[type=checkbox]').first().check();
      await page.getByRole('button', { name: action }).click();
      await page.waitForLoadState('load');
      await checkPage(page, `every-${name}`, ALWAYS);
      await page.getByRole('button', { name: submit, exact: true }).click();
      await page.waitForLoadState('load');
      await checkPage(page, `every-${name}-result`, ALWAYS);
    }
    await context.close();
    await staffUser(s.container, 'browser', 'facilitator');
    const facilitator = await signedIn('facilitator@example.org');
    expect(await facilitator.page.locator('main').innerText()).toContain('Your learners: in training');
    await checkPage(facilitator.page, 'every-facilitator-landing', ALWAYS);
    await facilitator.context.close();
  });

  it("a running export's progress bar moves while it runs, without reloading the page, and stops when it ends", async () => {
    const { s, signedIn } = dashboard();
    const repos = reposOf(s.container);
    const tenant = await repos.tenants.findBySlug('browser');
    const running = anExport({ tenantId: tenant!.id, status: 'processing', processedRows: 10, totalRows: 100 });
    await repos.exports.insert(running);
    const { context, page } = await signedIn('admin@example.org', 1280);
    await page.goto(`${s.url}/dashboard/exports`);
    await page.waitForLoadState('load');
    const bar = page.locator('#export-list progress');
    expect(await bar.getAttribute('value')).toBe('10');
    await checkPage(page, 'every-exports-running', ALWAYS);
    const loaded = await page.evaluate(() => performance.timeOrigin);
    await repos.exports.recordProgress(tenant!.id, running.id, 60, 100);
    await expect.poll(() => bar.getAttribute('value'), { timeout: 15_000 }).toBe('60');
    expect(await page.locator('#export-list').innerText()).toContain('60 of 100 rows written');
    await repos.exports.update({ ...running, status: 'failed', error: 'stopped by the test' });
    await expect
      .poll(() => page.locator('#export-list').innerText(), { timeout: 15_000 })
      .toContain('stopped by the test');
    expect(await page.locator('#export-list').getAttribute('data-poll')).toBeNull();
    // The same document all along: the script swapped the list in, the page never reloaded.
    expect(await page.evaluate(() => performance.timeOrigin)).toBe(loaded);
    await context.close();
  });
});

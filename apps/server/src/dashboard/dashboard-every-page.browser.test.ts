import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { staffUser } from '../testing/dashboard-client.js';
import type { TestServer } from '../testing/test-server.js';
import { assessmentBody } from '../testing/training-fixtures.js';
import { checkPage, describeBrowserSuite } from './dashboard-browser-fixture.js';

/** Opens each page in turn and checks it (axe at both widths, no sideways scroll, no learner id, no CSP break). */
async function checkEach(s: TestServer, page: Page, pages: [string, string][]): Promise<void> {
  for (const [name, path] of pages) {
    await page.goto(`${s.url}${path}`);
    await page.waitForLoadState('load');
    await checkPage(page, `every-${name}`);
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
    await checkPage(assessor.page, 'every-assessor-landing');
    await assessor.context.close();
  });
});

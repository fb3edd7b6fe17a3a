import { expect, it } from 'vitest';
import { checkPage } from '../dashboard/browser-page-checks.js';
import { describeBrowserSuite } from '../dashboard/dashboard-browser-fixture.js';
import { assessmentBody } from '../testing/training-fixtures.js';

/** The public verification page and its file check, in Chromium: axe-clean at both widths, no CSP violation. */
describeBrowserSuite('the verification page in a real browser (Chromium)', (dashboard) => {
  it('checks a PDF chosen in the form: the issued file matches, another does not', async () => {
    const { s, apiKey, learnerId, anonymous } = dashboard();
    expect((await s.call('PUT', '/api/v1/settings/regulator', apiKey, { sdpCode: 'SDP0042' })).status).toBe(200);
    const enrolments = await s.call('GET', `/api/v1/enrolments?learnerId=${learnerId}`, apiKey);
    const enrolmentId = enrolments.body.data[0].id as string;
    for (const m of ['KM-01', 'PM-01', 'WM-01'])
      await s.call('POST', '/api/v1/assessments', apiKey, assessmentBody(learnerId, m, { enrolmentId }));
    const issued = await s.call('POST', `/api/v1/learners/${learnerId}/statements`, apiKey, { enrolmentId });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const d = await s.call('GET', `/api/v1/learners/${learnerId}/statements/${issued.body.id}/download`, apiKey);
    const pdf = Buffer.from(await (await fetch(d.body.url)).arrayBuffer());

    const page = await (await anonymous(1280)).newPage();
    await page.goto(issued.body.verifyUrl);
    await checkPage(page, 'verify');
    const check = async (buffer: Buffer) => {
      await page.getByLabel(/The PDF/).setInputFiles({ name: 'statement.pdf', mimeType: 'application/pdf', buffer });
      await page.getByRole('button', { name: 'Check the file' }).click();
      await page.waitForLoadState('load');
    };
    await check(pdf);
    await expect.poll(() => page.locator('h1').textContent()).toBe('The file matches');
    await checkPage(page, 'verify-matches');
    const altered = Buffer.from(pdf);
    altered[altered.length - 20] = altered[altered.length - 20]! ^ 1;
    await check(altered);
    await expect.poll(() => page.locator('h1').textContent()).toBe('The file does not match');
    await checkPage(page, 'verify-differs');
  });
});

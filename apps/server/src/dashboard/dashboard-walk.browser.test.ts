import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { staffUser } from '../testing/dashboard-client.js';
import { idNumberFor } from '../testing/training-fixtures.js';
import { checkPage } from './browser-page-checks.js';
import { describeBrowserSuite, navigate, PNG } from './dashboard-browser-fixture.js';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const ID = idNumberFor(912_345);
const NAME = 'Thandi Nkosi';

/** No page of the walk shows an internal learner id where a person reads a table. */
async function noIdsInTables(page: Page, name: string): Promise<void> {
  const text = (await page.locator('table').allTextContents()).join(' ');
  expect(text, `${name}: an internal id in a table`).not.toMatch(/lrn_/);
}

const select = (page: Page, label: string, option: string) =>
  page.getByLabel(label, { exact: true }).selectOption({ label: option });

describeBrowserSuite('dashboard walks (Chromium): each role does its whole job in forms, no API call', (dashboard) => {
  it('an administrator builds the record from a programme to a downloaded QCTO01 file', async () => {
    const { s, signedIn, dialogs } = dashboard();
    const { context, page } = await signedIn('admin@example.org', 1280);

    await navigate(page, 'Settings');
    await page.getByLabel('SDP code (QCTO accreditation number)').fill('SDP123');
    await page.getByRole('button', { name: 'Save regulator codes' }).click();

    await navigate(page, 'Programmes');
    await page.getByRole('link', { name: 'Add a programme' }).click();
    await page.getByLabel('Code', { exact: true }).fill('W-ELEC');
    await page.getByLabel('Name', { exact: true }).fill('Electrician walk');
    await page.getByLabel('NQF level (0 to 10, optional)').fill('4');
    await page.getByLabel('Module 1 code').fill('KM-01');
    await page.getByLabel('Module 1 name').fill('Electrical principles');
    await page.getByLabel('Module 2 code').fill('PM-01');
    await page.getByLabel('Module 2 name').fill('Wiring practice');
    await page.getByLabel('Module 2 kind').selectOption('practical');
    await checkPage(page, 'programme-new');
    await page.getByRole('button', { name: 'Create programme' }).click();
    await page.waitForURL(/\/dashboard\/programmes\/prg_/);
    await checkPage(page, 'programme');

    await navigate(page, 'Learners');
    await page.getByRole('link', { name: 'Add a learner' }).click();
    await select(page, 'Title', 'Ms');
    await page.getByLabel('First name').fill('Thandi');
    await page.getByLabel('Last name').fill('Nkosi');
    await page.getByLabel('SA ID number').fill(ID);
    await expect
      .poll(() => page.locator('#id-facts').innerText())
      .toMatch(/^Born \d{4}-\d\d-\d\d, (female|male), SA citizen\.$/);
    await page.getByLabel('Mobile').fill('082 555 0101');
    await select(page, 'Population group (equity)', 'Black African (BA)');
    await select(page, 'Nationality', 'South Africa (SA)');
    await select(page, 'Home language', 'isiZulu (Zul)');
    await select(page, 'Citizen or resident status', 'South African (SA)');
    await select(page, 'Socio-economic status', 'Employed (01)');
    await select(page, 'Disability', 'None (N)');
    await select(page, 'Immigrant status', 'SA citizen (03)');
    await select(page, 'Province', 'KwaZulu-Natal (5)');
    await select(page, 'Agreed to the POPI Act notice', 'Yes');
    await page.getByLabel('POPI Act agreement date').fill('2026-01-05');
    await page.getByLabel('Home address line 1').fill('12 Long Street');
    await page.getByLabel('Home postal code').fill('4001');
    await checkPage(page, 'learner-new');
    await page.getByRole('button', { name: 'Add learner' }).click();
    await page.waitForURL(/\/dashboard\/learners\/lrn_[a-z0-9]+$/);
    const learnerUrl = page.url();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(NAME);

    await page.getByLabel('Programme', { exact: true }).selectOption({ label: 'Electrician walk (W-ELEC)' });
    await page.getByRole('button', { name: 'Enrol' }).click();
    await expect.poll(() => page.locator('p.notice').innerText()).toBe('Enrolled.');
    await page.getByLabel('New status').selectOption('in_progress');
    await page.getByRole('button', { name: 'Change status' }).click();
    await page.getByLabel('New status').selectOption('completed');
    await page.getByRole('button', { name: 'Change status' }).click();
    await expect
      .poll(() => page.locator('p.notice.error').innerText())
      .toContain('The enrolment cannot complete: no competent summative result for KM-01, PM-01');
    for (const m of ['KM-01', 'PM-01']) {
      await page.getByRole('button', { name: `C, competent: ${m}` }).click();
      await expect.poll(() => page.locator('p.notice').innerText()).toBe('The result is recorded.');
    }
    expect(await page.locator('main').innerText()).toContain('2 of 2 modules competent');
    await checkPage(page, 'learner-record-admin');
    await noIdsInTables(page, 'learner-record-admin');

    await page.getByLabel('Module', { exact: true }).selectOption({ label: 'KM-01 Electrical principles (W-ELEC)' });
    await page.getByLabel(/^Files/).setInputFiles([
      { name: 'certificate.pdf', mimeType: 'application/pdf', buffer: PDF },
      { name: 'site-photo.png', mimeType: 'image/png', buffer: PNG },
    ]);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/uploaded=2/, { timeout: 30_000 });
    expect(await page.locator('p.notice').innerText()).toBe('2 files uploaded.');
    // Approve the certificate; reject the photo, which asks first (the page's dialogs are accepted and recorded).
    for (const [file, button, status] of [
      ['certificate.pdf', 'Approve', 'approved'],
      ['site-photo.png', 'Reject', 'rejected'],
    ] as const) {
      await page.getByRole('link', { name: file }).click();
      // The review page is looked at once it has loaded, preview included, as a reviewer would before deciding:
      // a click made while the PDF preview's viewer was still starting once went nowhere (no form post reached the server).
      await page.waitForURL(/\/dashboard\/evidence\/evd_[a-z0-9]+$/, { waitUntil: 'load' });
      expect(await page.locator('main').innerText()).toContain('Status: submitted');
      if (file === 'site-photo.png') await checkPage(page, 'evidence-review-walk');
      // Under the whole suite's load, Chromium's PDF viewer starting in the page's <object> has taken every mouse
      // click at the button's place for tens of seconds (no post left the page, in three CI runs; never alone). When
      // a real click sends no post within 5 s, the button gets a DOM click: the same form, its listeners (Reject's
      // confirmation) and its post, without the hit test the viewer disturbs.
      const posted = (r: { method(): string }) => r.method() === 'POST';
      const decided = page.waitForRequest(posted, { timeout: 5_000 }).catch(() => null);
      await page.getByRole('button', { name: button }).click();
      if (!(await decided)) {
        const again = page.waitForRequest(posted, { timeout: 15_000 });
        await page.getByRole('button', { name: button }).dispatchEvent('click');
        await again;
      }
      await expect.poll(() => page.locator('main').innerText()).toContain(`Status: ${status}`);
      await page.goto(learnerUrl);
    }
    expect(dialogs).toContain('confirm: Reject site-photo.png?');
    await page.getByLabel('New status').selectOption('completed');
    await page.getByLabel('Certificate number (with completed, optional)').fill('CERT-2026-1');
    await page.getByRole('button', { name: 'Change status' }).click();
    await expect.poll(() => page.locator('p.notice').innerText()).toBe('The enrolment status is changed.');
    expect(await page.locator('main').innerText()).toMatch(/completed · from/);

    await navigate(page, 'Exports');
    await page.getByLabel('File').selectOption('qcto01');
    await page.getByRole('button', { name: 'Check readiness' }).click();
    await page.waitForURL(/\/dashboard\/readiness\?type=qcto01/);
    await checkPage(page, 'readiness');
    await page.reload();
    await page.getByText('Stats SA area code:').click();
    const row = page.getByRole('row').filter({ hasText: NAME });
    await row.getByRole('link', { name: 'Fix' }).click();
    await page.waitForURL(/\/edit#f-statssaAreaCode$/);
    await page.getByLabel('Stats SA area code').fill('7981001');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(learnerUrl);
    await page.goto(`${s.url}/dashboard/readiness?type=qcto01`);
    expect(await page.getByRole('status').innerText()).toContain('1 learner ready');
    expect(await page.locator('main').innerText()).not.toContain(NAME);
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the report as CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe('qcto01-readiness.csv');
    await page.getByRole('button', { name: 'Create the QCTO01 file now' }).click();
    const link = page.getByRole('link', { name: /Download .*QCTO01|Download .*\.(dat|txt)/i });
    await link.first().waitFor({ timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), link.first().click()]);
    const chunks: Buffer[] = [];
    for await (const c of (await download.createReadStream()) as AsyncIterable<Buffer>) chunks.push(c);
    expect(Buffer.concat(chunks).toString('latin1')).toContain(ID);
    expect(dialogs.filter((m) => m.startsWith('alert'))).toEqual([]);
    await context.close();
  });

  it('a moderator lands on moderation, draws a sample and records a decision', async () => {
    const { s, signedIn } = dashboard();
    await staffUser(s.container, 'browser', 'moderator');
    const { context, page } = await signedIn('moderator@example.org');
    expect(await page.locator('main').innerText()).toContain('Moderation due');
    await checkPage(page, 'moderator-landing');
    await navigate(page, 'Moderation');
    await page.getByLabel('Programme').selectOption({ label: 'Electrician walk (W-ELEC)' });
    await page.getByLabel('Percent of summative results').fill('100');
    await page.getByRole('button', { name: 'Draw sample' }).click();
    await page.waitForURL(/\/dashboard\/moderation\/smp_/);
    expect(await page.locator('main').innerText()).toContain(NAME);
    await noIdsInTables(page, 'moderation-sample');
    await checkPage(page, 'moderation-sample');
    await page.getByLabel('Notes (required) on KM-01').fill('Evidence matches the result.');
    await page.getByRole('button', { name: 'Uphold KM-01 C' }).click();
    await expect.poll(() => page.locator('main').innerText()).toContain('upheld: Evidence matches the result.');
    await context.close();
  });

  it('a viewer finds no write control anywhere and a forced post is refused', async () => {
    const { s, learnerId, signedIn, apiKey } = dashboard();
    const { context, page } = await signedIn('viewer@example.org');
    for (const path of [
      '/dashboard',
      '/dashboard/learners',
      `/dashboard/learners/${learnerId}`,
      '/dashboard/programmes',
      '/dashboard/enrolments',
      '/dashboard/moderation',
      '/dashboard/evidence',
    ]) {
      await page.goto(`${s.url}${path}`);
      // Reading controls (search, filter) stay; nothing that writes.
      const buttons = (await page.getByRole('button').allInnerTexts()).filter((b) => b !== 'Search' && b !== 'Filter');
      expect(buttons, path).toEqual(['Sign out viewer@example.org']);
      expect(await page.locator('main a.button').count(), path).toBe(0);
      await noIdsInTables(page, path);
    }
    await checkPage(page, 'viewer-learner');
    const token = await page.locator('input[name=_csrf]').first().inputValue();
    const forced = await context.request.post(`${s.url}/dashboard/learners/${learnerId}/edit`, {
      form: { _csrf: token, firstName: 'Forced', lastName: 'Change' },
      maxRedirects: 0,
    });
    expect(forced.status()).toBe(403);
    const enrol = await context.request.post(`${s.url}/dashboard/learners/${learnerId}/enrol`, {
      form: { _csrf: token, programmeCode: 'P-WEB', startDate: '2026-01-05' },
      maxRedirects: 0,
    });
    expect(enrol.status()).toBe(403);
    expect((await s.call('GET', `/api/v1/learners/${learnerId}`, apiKey)).body.lastName).not.toBe('Change');
    await context.close();
  });
});

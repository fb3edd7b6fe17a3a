import { expect, it } from 'vitest';
import { PASSWORD } from '../testing/dashboard-client.js';
import { checkPage } from './browser-page-checks.js';
import { describeBrowserSuite, XSS, navigate, openMenu } from './dashboard-browser-fixture.js';

describeBrowserSuite(
  'dashboard in a real browser (Chromium): sign-in, records, evidence, exports, viewer',
  (dashboard) => {
    it('signs in at 375 px; the session cookie is HttpOnly and SameSite=Lax; the overview counts', async () => {
      const { s, anonymous } = dashboard();
      const context = await anonymous();
      const page = await context.newPage();
      await page.goto(`${s.url}/dashboard`);
      expect(page.url()).toContain('/dashboard/sign-in');
      await checkPage(page, 'sign-in');
      await page.getByLabel('Organisation').fill('browser');
      await page.getByLabel('Email').fill('admin@example.org');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${s.url}/dashboard`);
      const cookie = (await context.cookies()).find((c) => c.name === 'fundi_session')!;
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe('Lax');
      expect(await page.locator('.tiles li', { hasText: 'Learners' }).locator('strong').innerText()).toBe('1');
      expect(
        await page.locator('.tiles li', { hasText: 'Evidence awaiting review' }).locator('strong').innerText(),
      ).toBe('1');
      expect(await page.locator('.tiles li', { hasText: 'Open enrolments' }).locator('strong').innerText()).toBe('1');
      // This overview, the search result and the learner's record below, with the fixture's data only, are checked
      // (axe, widths, CSP) as "overview", "learners" and "learner" in dashboard-every-page.browser.test.ts.
      await context.close();
    });

    it('finds a learner named like markup and shows the name as text; reviews their evidence with a preview', async () => {
      const { s, evidenceId, dialogs, signedIn } = dashboard();
      const { context, page } = await signedIn('admin@example.org');
      await page.goto(`${s.url}/dashboard/learners`);
      await page.getByLabel('Search by name, ID number, mobile, email or employee reference').fill('Nkosi');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page.getByRole('link', { name: `${XSS} Nkosi` }).count()).resolves.toBe(1);
      await page.getByRole('link', { name: `${XSS} Nkosi` }).click();
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(`${XSS} Nkosi`);
      expect(await page.locator('main img').count()).toBe(0);
      await page.goto(`${s.url}/dashboard/enrolments`);
      await page.getByLabel('Status').selectOption('enrolled');
      await page.getByRole('button', { name: 'Filter' }).click();
      expect(await page.locator('tbody tr').count()).toBe(1);
      expect(await page.locator('tbody tr').innerText()).toContain('0 of 3 modules');
      await page.getByLabel('Status').selectOption('completed');
      await page.getByRole('button', { name: 'Filter' }).click();
      expect(await page.locator('tbody tr').count()).toBe(0);
      await checkPage(page, 'enrolments');
      await page.goto(`${s.url}/dashboard/evidence`);
      await checkPage(page, 'evidence-queue');
      await page.getByRole('link', { name: 'site-photo.png' }).click();
      await page.waitForURL(`${s.url}/dashboard/evidence/${evidenceId}`);
      const loaded =
        "(() => { const i = document.querySelector('img.preview'); return i.complete && i.naturalWidth; })()";
      await expect.poll(() => page.evaluate(loaded)).toBe(1);
      await checkPage(page, 'evidence-review');
      await page.getByRole('button', { name: 'Request revision' }).click();
      expect(await page.locator('.notice.error').innerText()).toContain('feedback is required');
      await page.getByLabel('Feedback').fill('Please add the signed logbook page.');
      await page.getByRole('button', { name: 'Request revision' }).click();
      await page.waitForURL(`${s.url}/dashboard/evidence/${evidenceId}`);
      expect(await page.locator('main').innerText()).toContain('revision requested');
      expect(dialogs.filter((m) => m.startsWith('alert'))).toEqual([]);
      await context.close();
    });

    it('checks QCTO01 readiness, runs a learners CSV export and downloads it', async () => {
      const { signedIn } = dashboard();
      const { context, page } = await signedIn('admin@example.org');
      await navigate(page, 'Exports');
      await page.getByLabel('File').selectOption('qcto01');
      await page.getByRole('button', { name: 'Check readiness' }).click();
      const report = page.getByRole('status').filter({ hasText: 'readiness' });
      await expect(report.innerText()).resolves.toContain('0 learners ready, 1 left out');
      expect(await page.locator('main details.card tbody tr').count()).toBeGreaterThan(0);
      await checkPage(page, 'exports-readiness');
      // The report is a page of its own: a refresh shows it again.
      await page.reload();
      await expect(report.innerText()).resolves.toContain('0 learners ready, 1 left out');
      await navigate(page, 'Exports');
      await page.getByLabel('What').selectOption('learners');
      await page.getByRole('button', { name: 'Start export' }).click();
      const link = page.getByRole('link', { name: /Download .*\.csv/ });
      await link.waitFor({ timeout: 15_000 });
      await checkPage(page, 'exports');
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      const chunks: Buffer[] = [];
      for await (const c of (await download.createReadStream()) as AsyncIterable<Buffer>) chunks.push(c);
      const csv = Buffer.concat(chunks).toString('utf8');
      expect(csv).toContain('9001049818080');
      await context.close();
    });

    it('previews a PDF piece of evidence in the page', async () => {
      const { s, apiKey, learnerId, signedIn } = dashboard();
      const form = new FormData();
      form.append('learnerId', learnerId);
      form.append('moduleId', 'KM-01');
      form.append('evidenceType', 'certificate');
      form.append(
        'file',
        new Blob([Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')], { type: 'application/pdf' }),
        'certificate.pdf',
      );
      const up = await fetch(`${s.url}/api/v1/tenants/browser/evidence`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}` },
        body: form,
      });
      expect(up.status).toBe(201);
      const id = ((await up.json()) as { id: string }).id;
      const { context, page } = await signedIn('admin@example.org');
      await page.goto(`${s.url}/dashboard/evidence/${id}`);
      const data = await page.locator('object.preview.pdf').getAttribute('data');
      expect(data).toMatch(/\?inline=1$/);
      const file = await fetch(new URL(data!, s.url));
      expect(file.headers.get('content-disposition')).toMatch(/^inline;/);
      await checkPage(page, 'evidence-pdf');
      await context.close();
    });

    it('gives a viewer no write buttons and refuses the admin pages', async () => {
      const { s, evidenceId, signedIn } = dashboard();
      const { context, page } = await signedIn('viewer@example.org');
      await openMenu(page);
      expect(await page.getByRole('link', { name: 'API keys' }).count()).toBe(0);
      const refused = await page.goto(`${s.url}/dashboard/api-keys`);
      expect(refused!.status()).toBe(403);
      await checkPage(page, 'viewer-refused');
      await page.goto(`${s.url}/dashboard/webhooks`);
      expect(await page.getByRole('button').allInnerTexts()).toEqual(['Sign out viewer@example.org']);
      await page.goto(`${s.url}/dashboard/evidence/${evidenceId}`);
      expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      await checkPage(page, 'viewer-evidence');
      await context.close();
    });
  },
);

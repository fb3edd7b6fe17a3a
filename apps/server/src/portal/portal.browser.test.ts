import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '@fundi/adapters/testing';
import { idNumberFor } from '@fundi/domain/testing';
import { PDF, PNG } from '../evidence/evidence-http-fixture.js';
import { watchedContext } from '../dashboard/browser-page-checks.js';
import { runBrowserTests } from '../dashboard/dashboard-browser-fixture.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { programmeBody } from '../testing/training-fixtures.js';
import { PASSWORD, WebClient, staffUser } from '../testing/dashboard-client.js';
import { checkPortalPage, PHONE_WIDTHS, slow3g } from './portal-browser-fixture.js';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'];

(runBrowserTests ? describe : describe.skip)(
  'learner portal in a real browser (Chromium, phone widths)',
  { timeout: 300_000 },
  () => {
    let s: TestServer;
    let smtp: TestSmtpServer;
    let browser: Browser;
    let key: string;

    beforeAll(async () => {
      // Chromium starts while the server is set up; both are waited for, so that afterAll closes what started.
      const launched = chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS }).then((b) => {
        browser = b;
      });
      const setUp = await Promise.allSettled([setUpServer(), launched]);
      for (const r of setUp) if (r.status === 'rejected') throw r.reason;
    }, 120_000);
    async function setUpServer(): Promise<void> {
      smtp = await startSmtpServer();
      s = await startTestServer('sqlite', {
        worker: {},
        portalLimits: { perClient: 10_000 },
        notifications: {
          publicUrl: 'https://fundi.example',
          channels: {
            smtpUrl: smtp.url,
            smtpFrom: 'Fundi <no-reply@fundi.example>',
            smtpOptions: { ignoreTLS: true, timeoutMs: 5000 },
          },
        },
      });
      key = (await s.tenant('phone')).key;
      const body = programmeBody('P-PHONE') as { modules: Record<string, unknown>[] };
      body.modules[2]!.requiredHours = 24;
      expect((await s.call('POST', '/api/v1/programmes', key, body)).status).toBe(201);
      await staffUser(s.container, 'phone', 'assessor');
    }
    afterAll(async () => {
      await browser?.close();
      await s?.close();
      await smtp?.close();
    });

    /** The sign-in link of the latest sign-in mail to `address`, on this server. */
    async function mailedLink(address: string, count: number): Promise<string> {
      const deadline = Date.now() + 18_000;
      for (;;) {
        const mails = (await smtp.received()).filter((m) => m.to.includes(address) && m.subject.startsWith('Sign in'));
        if (mails.length >= count) return mails.at(-1)!.text.match(/https:\/\/fundi\.example(\/learn\/link\?\S+)/)![1]!;
        if (Date.now() > deadline) throw new Error(`no sign-in mail to ${address}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    /** The sign-off links of the first `count` mails to the supervisor, as paths of this server. */
    async function signOffLinks(address: string, count: number): Promise<string[]> {
      const deadline = Date.now() + 18_000;
      for (;;) {
        const mails = (await smtp.received()).filter((m) => m.to.includes(address));
        if (mails.length >= count)
          return mails.map((m) => m.text.match(/https:\/\/fundi\.example(\/learn\/sign-off\?\S+)/)![1]!);
        if (Date.now() > deadline) throw new Error(`${count} sign-off mails to ${address} did not arrive`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    /** Loads `path` and answers how long it took to be usable (the load event). */
    async function timed(page: Page, path: string): Promise<number> {
      const started = Date.now();
      await page.goto(`${s.url}${path}`, { waitUntil: 'load' });
      return Date.now() - started;
    }

    // The walk runs at each phone width and checks each of its pages at the width it runs at: every page, in every
    // state the walk reaches, is checked at both widths once (checking both widths in both walks checked each twice).
    it.each(PHONE_WIDTHS)(
      'at %i px: signs in by emailed link, uploads a photo (retried once) and a PDF, answers a revision, submits a week of three days the supervisor signs at once',
      async (width) => {
        const email = `phone${width}@example.org`;
        const l = await s.call('POST', '/api/v1/learners', key, {
          firstName: 'Nomsa',
          lastName: 'Dlamini',
          idNumber: idNumberFor(40_000 + width),
          email,
        });
        expect(l.status).toBe(201);
        const learnerId = l.body.id as string;
        expect(
          (
            await s.call('POST', '/api/v1/enrolments', key, {
              learnerId,
              programmeCode: 'P-PHONE',
              startDate: '2026-01-10',
            })
          ).status,
        ).toBe(201);

        const context = await watchedContext(browser, width);
        const page = await context.newPage();
        await page.goto(`${s.url}/learn`);
        expect(page.url()).toContain('/learn/sign-in');
        await page.goto(`${s.url}/learn/sign-in?tenant=phone`);
        await checkPortalPage(page, `sign-in-${width}`, [width]);
        await page.getByLabel('Email or mobile number').fill(email);
        await page.getByRole('button', { name: 'Send me a sign-in link or code' }).click();
        await expect(page.getByRole('status').innerText()).resolves.toContain('we have sent a sign-in link');

        await page.goto(`${s.url}${await mailedLink(email, 1)}`);
        await checkPortalPage(page, `continue-${width}`, [width]);
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.waitForURL(`${s.url}/learn`);
        const cookie = (await context.cookies()).find((c) => c.name === 'fundi_learner')!;
        expect([cookie.httpOnly, cookie.sameSite, cookie.path]).toEqual([true, 'Lax', '/learn']);
        await expect(page.getByText('0 of 3 modules competent').count()).resolves.toBe(1);
        await checkPortalPage(page, `home-${width}`, [width]);

        // A flaky connection: the photo's first attempt reaches the server, which stores it, but its answer is
        // lost. The page's script says so, tries again, and the form's key keeps it to one upload.
        let lost = 0;
        await page.route('**/learn/evidence', async (route) => {
          if (lost++ > 0) return route.continue();
          await route.fetch();
          await route.abort('connectionreset');
        });
        for (const [name, mimeType, buffer] of [
          ['site-photo.png', 'image/png', PNG],
          ['workbook.pdf', 'application/pdf', PDF],
        ] as const) {
          // From /learn, so that the wait below is for this upload's own landing on /learn?uploaded=1.
          await page.goto(`${s.url}/learn`);
          await page.getByText('Upload evidence for KM-01').click();
          await page.locator('input[type=file]').first().setInputFiles({ name, mimeType, buffer });
          await page.getByRole('button', { name: 'Upload', exact: true }).first().click();
          if (name === 'site-photo.png')
            await expect(page.locator('.upload-status').textContent({ timeout: 15_000 })).resolves.toContain(
              'The upload failed (the connection failed). Trying again in 2 seconds (attempt 2 of 4)',
            );
          await page.waitForURL(`${s.url}/learn?uploaded=1`);
          await expect(page.getByRole('status').innerText()).resolves.toContain('waiting for review');
        }
        await page.unroute('**/learn/evidence');
        expect(lost).toBe(3);
        await expect(page.getByText('site-photo.png: submitted, waiting for review').count()).resolves.toBe(1);

        const list = await s.call('GET', `/api/v1/evidence?learnerId=${learnerId}`, key);
        const pdf = (list.body.data as { id: string; filename: string }[]).find((e) => e.filename === 'workbook.pdf')!;
        const review = await s.call('PATCH', `/api/v1/evidence/${pdf.id}`, key, {
          status: 'revision_requested',
          feedback: 'Please sign page 4.',
        });
        expect(review.status).toBe(200);
        await page.goto(`${s.url}/learn`);
        await expect(page.getByText('Feedback: Please sign page 4.').count()).resolves.toBe(1);
        await checkPortalPage(page, `revision-${width}`, [width]);
        await page.locator(`form[action="/learn/evidence/${pdf.id}/versions"] input[type=file]`).setInputFiles({
          name: 'workbook-signed.pdf',
          mimeType: 'application/pdf',
          buffer: PDF,
        });
        await page.getByRole('button', { name: 'Upload a new version' }).click();
        await page.waitForURL(`${s.url}/learn?uploaded=1`);
        const v2 = await s.call('GET', `/api/v1/evidence/${pdf.id}`, key);
        expect([v2.body.version, v2.body.status]).toEqual([2, 'submitted']);

        await page.getByRole('link', { name: 'My details' }).click();
        await checkPortalPage(page, `details-${width}`, [width]);

        // The statements page (none issued yet) keeps to the same rules.
        await page.goto(`${s.url}/learn/statements`);
        await checkPortalPage(page, `statements-${width}`, [width]);

        // Three days of this week's workplace hours, submitted as the week: one link, on which the supervisor sees
        // and confirms all three together.
        const supervisor = `boss${width}@site.example`;
        const today = new Date();
        const monday =
          Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) -
          ((today.getUTCDay() + 6) % 7) * 86_400_000;
        const days = [0, 1, 2].map((n) => new Date(monday + n * 86_400_000).toISOString().slice(0, 10));
        await page.goto(`${s.url}/learn/logbook`);
        await checkPortalPage(page, `logbook-${width}`, [width]);
        for (const day of days) {
          await page.getByText('Log hours').first().click();
          await page.getByLabel('Date').fill(day);
          await page.getByLabel('Hours').fill('8');
          await page.getByLabel('What was done').fill(`Wired the distribution board on ${day}`);
          await page.getByLabel('Workplace').fill('Ubuntu Electrical');
          await page.getByLabel("Supervisor's name").fill('Sipho Khumalo');
          await page.getByLabel("Supervisor's email").fill(supervisor);
          await page.getByRole('button', { name: 'Log hours' }).click();
          await page.waitForURL(`${s.url}/learn/logbook?done=logged`);
        }
        await expect(page.getByText('24 hours logged, 0 signed of 24 required').count()).resolves.toBe(1);
        await checkPortalPage(page, `logbook-week-${width}`, [width]);
        await page.getByRole('button', { name: 'Submit this week (3)' }).click();
        await page.waitForURL(`${s.url}/learn/logbook?done=sent&entries=3&links=1`);
        await expect(page.getByRole('status').innerText()).resolves.toContain(
          'Sent 3 entries: your supervisor gets one link',
        );
        await expect(page.getByRole('button', { name: /^Submit this week/ }).count()).resolves.toBe(0);
        const links = await signOffLinks(supervisor, 1);
        expect(links.length).toBe(1);
        const boss = await watchedContext(browser, width);
        const bossPage = await boss.newPage();
        await bossPage.goto(`${s.url}${links[0]}`);
        for (const day of days)
          await expect(bossPage.getByText(`Wired the distribution board on ${day}`).count()).resolves.toBe(1);
        await expect(bossPage.getByText('3 days, 24 hours in all').count()).resolves.toBe(1);
        await checkPortalPage(bossPage, `sign-off-${width}`, [width]);
        await bossPage.getByRole('button', { name: 'Confirm these hours' }).click();
        await expect(bossPage.getByRole('status').innerText()).resolves.toContain('confirmed and signed');
        await boss.close();
        await page.goto(`${s.url}/learn/logbook`);
        await expect(page.getByText('24 hours logged, 24 signed of 24 required').count()).resolves.toBe(1);
        await expect(page.getByText('Ready for assessment').count()).resolves.toBe(1);
        // Staff see the same on the learner's page of the dashboard.
        const staff = new WebClient(s.url);
        expect((await staff.signIn('phone', 'assessor@example.org', PASSWORD)).status).toBe(303);
        const record = await staff.get(`/dashboard/learners/${learnerId}`);
        expect(record.text).toContain('<td>WM-01</td><td>24</td><td>24</td><td>24</td><td>yes</td>');

        // A long logbook: the page lists the module's latest 20 days, the rest are pages of 50 a link away.
        for (let i = 0; i < 57; i++) {
          const made = await s.call('POST', '/api/v1/logbook-entries', key, {
            learnerId,
            moduleCode: 'WM-01',
            date: new Date(Date.UTC(2026, 0, 5 + i)).toISOString().slice(0, 10),
            hours: 1,
            activity: `Earlier site work ${i + 1}`,
            workplace: 'Ubuntu Electrical',
            supervisor: { name: 'Sipho Khumalo', email: supervisor },
          });
          expect(made.status, JSON.stringify(made.body)).toBe(201);
        }
        await page.goto(`${s.url}/learn/logbook`);
        await expect(page.getByText('The latest 20 of 60 entries.').count()).resolves.toBe(1);
        await page.getByRole('link', { name: 'All entries of WM-01' }).click();
        await expect(page.getByText('Page 1 of 2').count()).resolves.toBe(1);
        await expect(page.getByText('Earlier site work 1', { exact: true }).count()).resolves.toBe(1);
        await checkPortalPage(page, `logbook-module-${width}`, [width]);
        await page.getByRole('link', { name: 'Later entries' }).click();
        await expect(page.getByText('Page 2 of 2').count()).resolves.toBe(1);
        await expect(page.getByText(`Wired the distribution board on ${days[2]}`).count()).resolves.toBe(1);

        // Chromium's Slow 3G profile: each page is usable within 3 s.
        await slow3g(page);
        for (const path of ['/learn', '/learn/details', '/learn/logbook', '/learn/statements']) {
          const ms = await timed(page, path);
          console.log(`portal page ${path} on Slow 3G at ${width} px: ${ms} ms to load (limit 3000 ms)`);
          expect(ms, path).toBeLessThan(3000);
        }
        await context.close();
      },
    );
  },
);

import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestReceiver } from '@fundi/adapters/testing';
import { useCasesOf } from '@fundi/adapters';
import { evidenceCapability } from '../capabilities/index.js';
import { PASSWORD, staffUser } from '../testing/dashboard-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { enrolledLearner } from '../testing/training-fixtures.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const OUT = fileURLToPath(new URL('../../test-output/dashboard/', import.meta.url));
const XSS = '<img src=x onerror=alert(1)>';
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e70000000049454e44ae426082',
  'hex',
);

// Under CI=true a missing Chromium fails the run; locally the suite is skipped with a notice.
const available = existsSync(CHROMIUM);
if (!available && process.env.CI !== 'true') console.warn(`dashboard browser tests skipped: no ${CHROMIUM}`);
const suite = available || process.env.CI === 'true' ? describe : describe.skip;

/** axe-core in the page (through the DevTools protocol, so the page's CSP stays as served): serious or critical. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  // Expressions as strings: they run in the page, whose DOM types this Node program does not declare.
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as axe.AxeResults;
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Checks a page as a whole: no serious accessibility problem, nothing wider than the screen; a screenshot. */
async function checkPage(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page), name).toEqual([]);
  // Wide tables scroll inside their own box; the page itself must never scroll sideways.
  const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
  expect(overflow, `${name} is wider than the screen`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${OUT}${name}.png`, fullPage: true });
}

// Each test signs in (scrypt) and runs axe on several pages: seconds each, more on a loaded machine.
suite('dashboard in a real browser (Chromium)', { timeout: 90_000 }, () => {
  let s: TestServer;
  let browser: Browser;
  let receiver: TestReceiver;
  let apiKey: string;
  let learnerId: string;
  let evidenceId: string;
  const dialogs: string[] = [];

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    s = await startTestServer('sqlite', { worker: {} });
    apiKey = (await s.tenant('browser')).key;
    await staffUser(s.container, 'browser', 'admin');
    await staffUser(s.container, 'browser', 'viewer');
    receiver = await s.receiver();
    ({ learnerId } = await enrolledLearner(s, apiKey, '/api/v1', { code: 'P-WEB', idNumber: '9001049818080' }));
    await s.call('PATCH', `/api/v1/learners/${learnerId}`, apiKey, { firstName: XSS });
    const form = new FormData();
    form.append('learnerId', learnerId);
    form.append('moduleId', 'KM-01');
    form.append('evidenceType', 'portfolio');
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'site-photo.png');
    const up = await fetch(`${s.url}/api/v1/tenants/browser/evidence`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: form,
    });
    expect(up.status).toBe(201);
    evidenceId = ((await up.json()) as { id: string }).id;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await s?.close();
  });

  async function signedIn(email: string, width = 375): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.accept();
    });
    await page.goto(`${s.url}/dashboard/sign-in?tenant=browser`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${s.url}/dashboard`);
    return { context, page };
  }

  it('signs in at 375 px; the session cookie is HttpOnly and SameSite=Lax; the overview counts', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
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
    expect(await page.locator('.tiles li', { hasText: 'Evidence awaiting review' }).locator('strong').innerText()).toBe(
      '1',
    );
    expect(await page.locator('.tiles li', { hasText: 'Open enrolments' }).locator('strong').innerText()).toBe('1');
    await checkPage(page, 'overview');
    await context.close();
  });

  it('creates an API key shown once, uses it against the API, revokes it and sees 401', async () => {
    const { context, page } = await signedIn('admin@example.org');
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Payroll sync');
    await page.getByLabel('Role').selectOption('viewer');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.locator('#new-key').inputValue();
    expect(key.length).toBeGreaterThan(20);
    await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);
    await checkPage(page, 'api-keys-created');
    expect((await s.call('GET', '/api/v1/learners', key)).status).toBe(200);
    await page.goto(`${s.url}/dashboard/api-keys`);
    expect(await page.content()).not.toContain(key);
    await page.getByRole('button', { name: 'Revoke Payroll sync' }).click();
    await page.waitForURL(`${s.url}/dashboard/api-keys`);
    expect(await page.locator('tr', { hasText: 'Payroll sync' }).innerText()).toContain('revoked');
    expect((await s.call('GET', '/api/v1/learners', key)).status).toBe(401);
    await checkPage(page, 'api-keys');
    await context.close();
  });

  it('adds a webhook subscription, sends a test event and sees the delivery in the log', async () => {
    const { context, page } = await signedIn('admin@example.org');
    await page.goto(`${s.url}/dashboard/webhooks`);
    await page.getByLabel('Receiver URL (https)').fill(receiver.url);
    await page.getByLabel('learner.created').check();
    await page.getByRole('button', { name: 'Add subscription' }).click();
    expect(await page.locator('#new-secret').inputValue()).toMatch(/^whsec_/);
    await checkPage(page, 'webhooks');
    await page.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.locator('tbody tr', { hasText: 'ping' }).count();
        },
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    expect(await page.locator('tbody tr', { hasText: 'ping' }).first().innerText()).toContain('200');
    await checkPage(page, 'webhook-deliveries');
    await context.close();
  });

  it('finds a learner named like markup and shows the name as text; reviews their evidence with a preview', async () => {
    const { context, page } = await signedIn('admin@example.org');
    await page.goto(`${s.url}/dashboard/learners`);
    await page.getByLabel('Search by name, email or ID number').fill('Nkosi');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('link', { name: `${XSS} Nkosi` }).count()).resolves.toBe(1);
    await checkPage(page, 'learners');
    await page.getByRole('link', { name: `${XSS} Nkosi` }).click();
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(`${XSS} Nkosi`);
    expect(await page.locator('main img').count()).toBe(0);
    await checkPage(page, 'learner-record');
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
    const { context, page } = await signedIn('admin@example.org');
    await page.getByRole('link', { name: 'Exports' }).click();
    await page.getByLabel('File').selectOption('qcto01');
    await page.getByRole('button', { name: 'Check readiness' }).click();
    const report = page.getByRole('status').filter({ hasText: 'readiness' });
    await expect(report.innerText()).resolves.toContain('0 learners ready, 1 left out');
    expect(await report.locator('tbody tr').count()).toBeGreaterThan(0);
    await checkPage(page, 'exports-readiness');
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

  it('shows the settings, refuses a post without a CSRF token from the page, and signs out', async () => {
    const { context, page } = await signedIn('admin@example.org');
    await page.goto(`${s.url}/dashboard/settings`);
    expect(await page.locator('main').innerText()).toContain('kept 7 years');
    await page.getByLabel('SDP code (QCTO accreditation number)').fill('SDP-77');
    await page.getByRole('button', { name: 'Save regulator codes' }).click();
    await expect(page.getByRole('status').innerText()).resolves.toBe('Regulator codes saved.');
    await checkPage(page, 'settings');
    await page.getByRole('link', { name: 'Staff users' }).click();
    await page.getByLabel('Email', { exact: true }).fill('new.assessor@example.org');
    await page.getByLabel('Name').fill('New Assessor');
    await page.getByLabel('Role').selectOption('assessor');
    await page.getByLabel('Send them an invitation by email').uncheck();
    await page.getByRole('button', { name: 'Add user' }).click();
    expect(await page.locator('#new-link').inputValue()).toContain('/dashboard/set-password?token=usr_');
    await checkPage(page, 'staff-users');
    const status = await page.evaluate(() =>
      fetch('/dashboard/api-keys', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=forged&role=admin',
      }).then((r) => r.status),
    );
    expect(status).toBe(403);
    await page.getByRole('button', { name: /Sign out/ }).click();
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Sign in');
    expect((await context.cookies()).some((c) => c.name === 'fundi_session')).toBe(false);
    await page.goto(`${s.url}/dashboard/settings`);
    expect(page.url()).toContain('/dashboard/sign-in');
    await context.close();
  });

  it('switches a trigger off, edits an email template with a preview, and shows the notifications', async () => {
    const { context, page } = await signedIn('admin@example.org', 375);
    await page.getByRole('link', { name: 'Notifications' }).click();
    await page.waitForURL(`${s.url}/dashboard/notifications`);
    await checkPage(page, 'notifications');
    await page.getByLabel('welcome').uncheck();
    await page.getByRole('button', { name: 'Save triggers' }).click();
    await page.getByText('Triggers saved.').waitFor();
    const settings = await s.call('GET', '/api/v1/notification-settings', apiKey);
    expect(settings.body.triggers.welcome).toBe(false);
    expect(settings.body.triggers.assessment_result).toBe(true);

    await page.getByRole('link', { name: 'evidence_approved' }).click();
    await page.getByLabel('Subject').fill('Well done {{learner.firstName}}: {{module.name}}');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText('Subject: Well done Thandi: Module 2: Workplace safety').waitFor();
    await checkPage(page, 'notification-template-preview');
    await page.getByLabel('Subject').fill('Hi {{learner.shoeSize}}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('unknown template variable').first().waitFor();
    await page.getByLabel('Subject').fill('Well done {{learner.firstName}}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Template saved.').waitFor();
    const t = await s.call('GET', '/api/v1/notification-templates/evidence_approved', apiKey);
    expect(t.body).toMatchObject({ source: 'override', email: { subject: 'Well done {{learner.firstName}}' } });
    await page.getByRole('button', { name: 'Reset to the default' }).click();
    await page.getByText('The default version applies again.').waitFor();
    await context.close();

    const viewer = await signedIn('viewer@example.org');
    await viewer.page.goto(`${s.url}/dashboard/notifications`);
    expect(await viewer.page.getByRole('button', { name: 'Save triggers' }).count()).toBe(0);
    await viewer.page.goto(`${s.url}/dashboard/notifications/templates/welcome`);
    expect(await viewer.page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await checkPage(viewer.page, 'viewer-notification-template');
    await viewer.context.close();
  });

  it('uploads a learners CSV, shows the dry-run report with its errors, confirms it and shows it imported', async () => {
    const { context, page } = await signedIn('admin@example.org', 375);
    await page.getByRole('link', { name: 'Imports' }).click();
    await page.waitForURL(`${s.url}/dashboard/imports`);
    await checkPage(page, 'imports');
    const csv = [
      'first_name,last_name,id_number,email',
      'Lerato,Mokoena,8001015009087,lerato.import@example.org',
      'Bad,Row,1234567890123,bad.row@example.org',
      'Sizwe,Ndlovu,9202204720083,sizwe.import@example.org',
      '',
    ].join('\r\n');
    await page.getByLabel('What the file holds').selectOption('learners');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'learners.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/dashboard\/imports\/imp_/);
    await page.getByRole('button', { name: 'Confirm the import' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('tr', { hasText: 'Valid rows' }).locator('td').innerText()).toBe('2');
    expect(await page.getByRole('cell', { name: 'id_number' }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'Download every error as CSV' }).count()).toBe(1);
    await checkPage(page, 'import-report');
    await page.getByRole('button', { name: 'Confirm the import' }).click();
    await page.locator('td', { hasText: 'Imported' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('tr', { hasText: 'Written' }).locator('td').innerText()).toBe('2');
    const found = await s.call('GET', '/api/v1/learners?search=lerato.import', apiKey);
    expect(found.body.data).toHaveLength(1);
    await context.close();

    const viewer = await signedIn('viewer@example.org');
    await viewer.page.goto(`${s.url}/dashboard/imports`);
    expect(await viewer.page.getByRole('button', { name: 'Upload' }).count()).toBe(0);
    await viewer.context.close();
  });

  it('sets up HR sync: rotates the key (shown once), saves an outbound URL, and shows an inbound event in the log', async () => {
    const { context, page } = await signedIn('admin@example.org', 375);
    await page.getByRole('link', { name: 'HR sync' }).click();
    await page.waitForURL(`${s.url}/dashboard/hr-sync`);
    await checkPage(page, 'hr-sync');
    await page.getByRole('button', { name: 'Rotate the webhook key' }).click();
    const key = await page.locator('#hr-key').inputValue();
    expect(key.length).toBeGreaterThan(20);
    await page.getByLabel('HR sync is on').check();
    await page.getByLabel('Outbound URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByText('Configuration saved.').waitFor();
    expect(await page.locator('#hr-secret').inputValue()).toMatch(/^whsec_/);
    const inbound = await fetch(`${s.url}/v1/tenants/browser/webhooks/hr-sync`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({
        event: 'employee.enrolled',
        data: {
          employeeId: 'E-77',
          firstName: 'Nandi',
          lastName: 'Khoza',
          saIdNumber: '8501015800088',
          programmeCode: 'P-WEB',
        },
      }),
    });
    expect(inbound.status, await inbound.text()).toBe(200);
    await page.goto(`${s.url}/dashboard/hr-sync`);
    expect(await page.getByRole('cell', { name: 'employee.enrolled' }).count()).toBe(1);
    await checkPage(page, 'hr-sync-log');
    await context.close();

    const viewer = await signedIn('viewer@example.org');
    expect(await viewer.page.getByRole('link', { name: 'HR sync' }).count()).toBe(0);
    expect((await viewer.page.goto(`${s.url}/dashboard/hr-sync`))!.status()).toBe(403);
    await viewer.context.close();
  });

  it('shows storage over time as an accessible chart with a table, and the requests of today', async () => {
    await useCasesOf(s.container, evidenceCapability).evidence.usage.snapshotUsage();
    const { context, page } = await signedIn('admin@example.org', 375);
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.waitForURL(`${s.url}/dashboard/usage`);
    expect(await page.getByRole('img', { name: 'Storage used over the last 30 days' }).count()).toBe(1);
    expect(await page.getByRole('table', { name: 'Storage used per day' }).locator('tbody tr').count()).toBe(1);
    await checkPage(page, 'usage');
    await context.close();
  });

  it('previews a PDF piece of evidence in the page', async () => {
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
    const { context, page } = await signedIn('viewer@example.org');
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
});

import { expect, it } from 'vitest';
import { useCasesOf } from '@fundi/adapters';
import { evidenceCapability } from '../capabilities/index.js';
import { checkPage } from './browser-page-checks.js';
import { describeBrowserSuite, navigate, openMenu } from './dashboard-browser-fixture.js';

describeBrowserSuite('dashboard in a real browser (Chromium): administration pages', (dashboard) => {
  it('creates an API key shown once, uses it against the API, revokes it and sees 401', async () => {
    const { s, signedIn } = dashboard();
    const { context, page } = await signedIn('admin@example.org');
    await navigate(page, 'API keys');
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
    const { s, receiver, signedIn } = dashboard();
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

  it('shows the settings, refuses a post without a CSRF token from the page, and signs out', async () => {
    const { s, signedIn } = dashboard();
    const { context, page } = await signedIn('admin@example.org');
    await page.goto(`${s.url}/dashboard/settings`);
    expect(await page.locator('main').innerText()).toContain('kept 7 years');
    await page.getByLabel('SDP code (QCTO accreditation number)').fill('SDP-77');
    await page.getByRole('button', { name: 'Save regulator codes' }).click();
    await expect(page.getByRole('status').innerText()).resolves.toBe('Regulator codes saved.');
    await checkPage(page, 'settings');
    await navigate(page, 'Staff users');
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
    const { s, apiKey, signedIn } = dashboard();
    const { context, page } = await signedIn('admin@example.org', 375);
    await navigate(page, 'Notifications');
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
    const { s, apiKey, signedIn } = dashboard();
    const { context, page } = await signedIn('admin@example.org', 375);
    await navigate(page, 'Imports');
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
    const { s, receiver, signedIn } = dashboard();
    const { context, page } = await signedIn('admin@example.org', 375);
    await navigate(page, 'HR sync');
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
    await openMenu(viewer.page);
    expect(await viewer.page.getByRole('link', { name: 'HR sync' }).count()).toBe(0);
    expect((await viewer.page.goto(`${s.url}/dashboard/hr-sync`))!.status()).toBe(403);
    await viewer.context.close();
  });

  it('shows storage over time as an accessible chart with a table, and the requests of today', async () => {
    const { s, signedIn } = dashboard();
    await useCasesOf(s.container, evidenceCapability).evidence.usage.snapshotUsage();
    const { context, page } = await signedIn('admin@example.org', 375);
    await navigate(page, 'Usage');
    await page.waitForURL(`${s.url}/dashboard/usage`);
    expect(await page.getByRole('img', { name: 'Storage used over the last 30 days' }).count()).toBe(1);
    expect(await page.getByRole('table', { name: 'Storage used per day' }).locator('tbody tr').count()).toBe(1);
    await checkPage(page, 'usage');
    await context.close();
  });
});

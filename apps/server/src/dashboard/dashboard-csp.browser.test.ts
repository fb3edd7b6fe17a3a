import { expect, it } from 'vitest';
import { WIDTHS, cspViolations } from './browser-page-checks.js';
import { describeBrowserSuite } from './dashboard-browser-fixture.js';

describeBrowserSuite('dashboard in a real browser (Chromium): its own Content-Security-Policy', (dashboard) => {
  it('every page, signed in or not, at 1280 and 375 px, breaks nothing of its policy', async () => {
    const { s, apiKey, learnerId, evidenceId, receiver, signedIn, anonymous } = dashboard();
    const hook = await s.call('POST', '/api/v1/webhook-subscriptions', apiKey, {
      url: receiver.url,
      events: ['learner.created'],
    });
    expect(hook.status).toBe(201);
    const csv = 'first_name,last_name,id_number\r\nLerato,Mokoena,8001015009087\r\n';
    const form = new FormData();
    form.append('type', 'learners');
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'learners.csv');
    const imported = await fetch(`${s.url}/api/v1/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: form,
    });
    expect(imported.status).toBe(202);
    const importId = ((await imported.json()) as { id: string }).id;
    const enrolments = await s.call('GET', `/api/v1/enrolments?learnerId=${learnerId}`, apiKey);
    const signedInPages = [
      '/dashboard',
      '/dashboard/learners',
      `/dashboard/learners/${learnerId}`,
      '/dashboard/enrolments',
      `/dashboard/enrolments/${enrolments.body.data[0].id}`,
      '/dashboard/evidence',
      `/dashboard/evidence/${evidenceId}`,
      '/dashboard/webhooks',
      `/dashboard/webhooks/${hook.body.id}`,
      '/dashboard/imports',
      `/dashboard/imports/${importId}`,
      '/dashboard/exports',
      '/dashboard/notifications',
      '/dashboard/notifications/templates/welcome',
      '/dashboard/hr-sync',
      '/dashboard/api-keys',
      '/dashboard/users',
      '/dashboard/usage',
      '/dashboard/audit',
      '/dashboard/settings',
      '/dashboard/no-such-page',
    ];
    const publicPages = ['/dashboard/sign-in', '/dashboard/forgot-password', '/dashboard/set-password?token=nope'];
    for (const width of WIDTHS) {
      const { context, page } = await signedIn('admin@example.org', width);
      for (const path of signedInPages) {
        const answer = await page.goto(`${s.url}${path}`);
        expect(answer!.status(), path).toBe(path === '/dashboard/no-such-page' ? 404 : 200);
        await page.waitForLoadState('load');
      }
      expect(cspViolations(context), `signed in, ${width} px`).toEqual([]);
      await context.close();
      const visitor = await anonymous(width);
      const open = await visitor.newPage();
      for (const path of publicPages) await open.goto(`${s.url}${path}`);
      expect(cspViolations(visitor), `signed out, ${width} px`).toEqual([]);
      await visitor.close();
    }
  });

  it('the check sees what the policy refuses: an inline style attribute and an inline script', async () => {
    const { s, anonymous } = dashboard();
    const context = await anonymous();
    const page = await context.newPage();
    await page.goto(`${s.url}/dashboard/sign-in`);
    await page.evaluate(
      "document.body.insertAdjacentHTML('beforeend', '<p style=\"color:red\">inline</p>'); const x = document.createElement('script'); x.textContent = 'window.ran = true'; document.body.append(x);",
    );
    const seen: string[] = [];
    const both = () => {
      seen.push(...cspViolations(context));
      return ['style-src-attr', 'script-src-elem'].every((d) => seen.some((v) => v.includes(d)));
    };
    await expect.poll(both).toBe(true);
    expect(await page.evaluate('window.ran === true')).toBe(false);
    await context.close();
    // What the browser still reported of these two is this test's own doing, not a page's.
    cspViolations(context);
  });
});
